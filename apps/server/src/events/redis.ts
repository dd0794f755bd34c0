import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BusEvent, EventTransport } from '../events.js';
import { decodeEvent, encodeEvent } from './wire.js';

/**
 * Live events between instances through Redis pub/sub on one channel (REDIS_URL). A subscribed
 * connection can do nothing else, so publishing has a connection of its own. As with NOTIFY, this
 * instance's events come back through the subscription, so every instance sees one order (Redis's).
 * Redis pub/sub has no payload limit worth chunking for. Both connections reconnect by themselves
 * (ioredis), the subscriber re-subscribes; events published meanwhile are queued by the publisher and
 * missed by a subscriber that is away.
 */
export class RedisTransport implements EventTransport {
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly log: Logger,
  ) {}

  async start(deliver: (event: BusEvent) => void): Promise<void> {
    const { Redis } = await import('ioredis');
    const publisher = new Redis(this.url, { lazyConnect: true, connectTimeout: 5000, connectionName: 'mbox-events-publish' });
    const subscriber = new Redis(this.url, { lazyConnect: true, connectTimeout: 5000, connectionName: 'mbox-events-subscribe' });
    for (const [connection, role] of [
      [publisher, 'publish'],
      [subscriber, 'subscribe'],
    ] as const) {
      connection.on('error', (error: Error) => this.log.warn({ err: error, role }, 'live events: Redis connection failed'));
    }
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const event = decodeEvent(message);
      if (event) deliver(event);
      else this.log.warn({ channel }, 'live events: ignored a message that is no event');
    });
    try {
      await Promise.all([publisher.connect(), subscriber.connect()]);
      await subscriber.subscribe(this.channel);
    } catch (error) {
      publisher.disconnect();
      subscriber.disconnect();
      throw new Error(`Cannot connect to REDIS_URL (live events): ${error instanceof Error ? error.message : String(error)}`);
    }
    this.publisher = publisher;
    this.subscriber = subscriber;
  }

  publish(event: BusEvent): void {
    if (this.closed || !this.publisher) return;
    this.publisher
      .publish(this.channel, encodeEvent(event))
      .catch((error: unknown) => this.log.error({ err: error, event: event.name }, 'live events: Redis PUBLISH failed, event lost'));
  }

  /** QUIT after the commands sent before it, so what was published goes out. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subscriber?.removeAllListeners('message');
    await Promise.allSettled([this.publisher?.quit(), this.subscriber?.quit()]);
  }
}
