import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import type { BusEvent, EventTransport } from '../events.js';
import { ChunkAssembler, toChunks } from './chunks.js';
import { decodeEvent, encodeEvent } from './wire.js';

/** A message whose parts stop coming is dropped after this long. */
const INCOMPLETE_TIMEOUT_MS = 10_000;
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;
/** At most this many notifications (of up to 8 kB) in one statement: a burst goes in pieces of ≤ 2 MB. */
const MAX_PARTS_PER_STATEMENT = 256;

/**
 * Live events between the instances sharing one PostgreSQL database: LISTEN on one channel, NOTIFY to it.
 *
 * This instance's own events reach it the same way as the others' (through LISTEN, not delivered at
 * once): every instance then sees all events in one order, the database's commit order, so a line's
 * revisions never arrive swapped when two instances take turns ingesting one meeting. The price is a
 * round trip to the database (docs/scaling.md has the figures).
 *
 * Publishing is fire and forget: the request that caused the event does not wait for it. All NOTIFYs
 * go through one connection, one statement at a time, so they leave in the order they were published;
 * events queued while a statement is out go together in the next (a statement's notifications arrive
 * in order, together). An event's parts are never split over two statements.
 */
export class PgNotifyTransport implements EventTransport {
  private readonly instanceId = randomBytes(6).toString('base64url');
  private sequence = 0;
  private readonly assembler = new ChunkAssembler(INCOMPLETE_TIMEOUT_MS);
  private readonly publisher: pg.Pool;
  private queued: { name: string; parts: string[] }[] = [];
  private sending: Promise<void> | null = null;
  private listener: pg.Client | null = null;
  private deliver: ((event: BusEvent) => void) | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private reconnectAttempts = 0;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly log: Logger,
  ) {
    this.publisher = new pg.Pool({ connectionString: databaseUrl, max: 1, application_name: 'mbox-events-notify', keepAlive: true });
    this.publisher.on('error', (error) => this.log.warn({ err: error }, 'live events: the NOTIFY connection failed'));
  }

  /** Fails when the database cannot be reached: the server should not start half deaf. */
  async start(deliver: (event: BusEvent) => void): Promise<void> {
    this.deliver = deliver;
    await this.listen().catch((error: unknown) => {
      throw new Error(`Cannot LISTEN for live events on DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`);
    });
    this.sweepTimer = setInterval(() => {
      const dropped = this.assembler.sweep(Date.now());
      if (dropped) this.log.warn({ dropped }, 'live events: dropped events whose parts did not all arrive');
    }, INCOMPLETE_TIMEOUT_MS).unref();
  }

  publish(event: BusEvent): void {
    if (this.closed) return;
    this.sequence += 1;
    this.queued.push({ name: event.name, parts: toChunks(`${this.instanceId}.${this.sequence.toString(36)}`, encodeEvent(event)) });
    this.sending ??= this.send();
  }

  /**
   * Sends the queue, and what was queued meanwhile, in as many statements as it takes: events published
   * while a statement is on its way go together in the next one (one round trip for many).
   */
  private async send(): Promise<void> {
    while (this.queued.length) {
      let parts = this.queued[0]!.parts.length;
      let count = 1;
      while (count < this.queued.length && parts + this.queued[count]!.parts.length <= MAX_PARTS_PER_STATEMENT) {
        parts += this.queued[count]!.parts.length;
        count += 1;
      }
      const batch = this.queued.splice(0, count);
      try {
        await this.publisher.query('SELECT pg_notify($1, part) FROM unnest($2::text[]) AS part', [this.channel, batch.flatMap((e) => e.parts)]);
      } catch (error) {
        this.log.error({ err: error, events: batch.map((e) => e.name) }, 'live events: NOTIFY failed, events lost');
      }
    }
    this.sending = null;
  }

  /** Sends what was published before, then disconnects. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.sending;
    const listener = this.listener;
    this.listener = null;
    this.deliver = null;
    await Promise.allSettled([listener?.end(), this.publisher.end()]);
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: 'mbox-events-listen', keepAlive: true });
    client.on('notification', (message) => {
      if (message.channel !== this.channel || message.payload === undefined) return;
      const text = this.assembler.accept(message.payload, Date.now());
      if (text === null) return;
      const event = decodeEvent(text);
      if (event) this.deliver?.(event);
      else this.log.warn({ channel: this.channel }, 'live events: ignored a notification that is no event');
    });
    // A dropped connection emits 'error' (when a query was running) and/or 'end': either starts one reconnect.
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.listener = null;
      client.removeAllListeners('notification');
      void client.end().catch(() => {});
      if (this.closed) return;
      this.log.warn({ err: error }, 'live events: the LISTEN connection was lost; reconnecting');
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      // The channel name is checked by the config schema (lower-case identifier), so quoting suffices.
      await client.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end();
      return;
    }
    this.listener = client;
  }

  private scheduleReconnect(): void {
    const delay = Math.min(RECONNECT_FIRST_MS * 2 ** this.reconnectAttempts, RECONNECT_MAX_MS);
    this.reconnectAttempts += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.listen().then(
        () => {
          if (this.reconnectAttempts > 0) this.log.info({ attempts: this.reconnectAttempts }, 'live events: listening again');
          this.reconnectAttempts = 0;
        },
        (error: unknown) => {
          if (this.closed) return;
          this.log.warn({ err: error, retryInMs: Math.min(RECONNECT_FIRST_MS * 2 ** this.reconnectAttempts, RECONNECT_MAX_MS) }, 'live events: reconnect failed');
          this.scheduleReconnect();
        },
      );
    }, delay);
  }
}
