import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';

/** Expired rows are deleted at most this often (per instance), on a hit. */
const SWEEP_INTERVAL_MS = 60_000;

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * A @fastify/rate-limit store in the RateLimitHit table, so every instance on one database shares the
 * counters. A hit is one atomic statement: insert the key, or count one more in its window, or start a
 * new window when the old one has passed. Times travel as epoch milliseconds and are stored as UTC, so
 * neither the session time zone nor the driver's Date handling (PGlite, pg) can shift a window.
 */
export function databaseRateLimitStore(db: Db, log: Logger): FastifyRateLimitStoreCtor {
  let lastSweep = 0;

  const sweep = async (now: number) => {
    if (now - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = now;
    await db.$executeRaw`DELETE FROM "RateLimitHit" WHERE "resetAt" <= (to_timestamp(${now}::float8 / 1000) AT TIME ZONE 'UTC')`.catch(
      (error: unknown) => log.warn({ err: error }, 'rate limit: deleting expired counters failed'),
    );
  };

  const hit = async (key: string, now: number, timeWindow: number) => {
    const [row] = await db.$queryRaw<{ count: number; resetAtMs: number }[]>`
      INSERT INTO "RateLimitHit" ("key", "count", "resetAt")
      VALUES (${key}, 1, to_timestamp(${now + timeWindow}::float8 / 1000) AT TIME ZONE 'UTC')
      ON CONFLICT ("key") DO UPDATE SET
        "count" = CASE WHEN "RateLimitHit"."resetAt" <= (to_timestamp(${now}::float8 / 1000) AT TIME ZONE 'UTC')
          THEN 1 ELSE "RateLimitHit"."count" + 1 END,
        "resetAt" = CASE WHEN "RateLimitHit"."resetAt" <= (to_timestamp(${now}::float8 / 1000) AT TIME ZONE 'UTC')
          THEN EXCLUDED."resetAt" ELSE "RateLimitHit"."resetAt" END
      RETURNING "count", (EXTRACT(EPOCH FROM "resetAt") * 1000)::float8 AS "resetAtMs"`;
    if (!row) throw new Error('rate limit: the counter upsert returned no row');
    return row;
  };

  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      const now = Date.now();
      hit(key, now, timeWindow).then(
        async (row) => {
          await sweep(now);
          callback(null, { current: row.count, ttl: Math.max(0, row.resetAtMs - now) });
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

type PluginRedisStore = new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key: string) => FastifyRateLimitStore;

/**
 * @fastify/rate-limit's own Redis store (its Lua script counts and expires atomically), with one key
 * space: the plugin's `child()` would put the route's method and URL into every key, and limiters made
 * by createRateLimit have none (the keys would read `undefinedundefined-`).
 */
export function redisRateLimitStore(redis: Redis, namespace: string): FastifyRateLimitStoreCtor {
  const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as PluginRedisStore;
  const store = new RedisStore(false, false, redis, namespace);
  return class SharedRedisStore implements FastifyRateLimitStore {
    incr(...args: Parameters<FastifyRateLimitStore['incr']>): void {
      store.incr(...args);
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
