import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { LocalTransport, type EventTransport } from '../events.js';

/**
 * How live events reach every instance: embedded PGlite (no database URL) serves one process only, so
 * they stay in it; on PostgreSQL they go through Redis pub/sub when REDIS_URL is set, else NOTIFY.
 * Each transport's client library is loaded only when it is used (start-up time).
 */
export async function createEventTransport(
  config: Pick<Config, 'REDIS_URL' | 'EVENTS_CHANNEL'>,
  databaseUrl: string | null | undefined,
  log: Logger,
): Promise<EventTransport> {
  if (!databaseUrl) return new LocalTransport();
  if (config.REDIS_URL) {
    const { RedisTransport } = await import('./redis.js');
    return new RedisTransport(config.REDIS_URL, config.EVENTS_CHANNEL, log);
  }
  const { PgNotifyTransport } = await import('./pg-notify.js');
  return new PgNotifyTransport(databaseUrl, config.EVENTS_CHANNEL, log);
}
