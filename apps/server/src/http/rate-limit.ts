import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { AppDeps } from '../deps.js';
import { sendApiError } from './error-body.js';
import type { ProcedureResolver } from './procedures.js';
import { databaseRateLimitStore, redisRateLimitStore } from './rate-limit-store.js';

type App = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>;

interface Bucket {
  /** Part of the counter's key. */
  name: string;
  /** What the 429 message says there were too many of. */
  what: string;
  limit: Extract<keyof Config, `RATE_LIMIT_${string}`>;
  procedures: string[];
}

/** The throttled procedures; each call counts once, whichever transport and however batched. */
export const RATE_LIMIT_BUCKETS: Bucket[] = [
  { name: 'sign-in', what: 'sign-in attempts', limit: 'RATE_LIMIT_SIGN_IN', procedures: ['auth.login', 'auth.signIn', 'auth.firebaseSignIn'] },
  { name: 'tokens', what: 'token requests', limit: 'RATE_LIMIT_TOKENS', procedures: ['auth.extensionToken', 'auth.refresh', 'accessTokens.create'] },
  { name: 'referral', what: 'referral acceptances', limit: 'RATE_LIMIT_REFERRAL', procedures: ['referral.accept'] },
  {
    name: 'summarizer',
    what: 'summaries',
    limit: 'RATE_LIMIT_SUMMARIZER',
    procedures: ['tools.summary', 'tools.youtube', 'tools.publicSummary', 'tools.publicYoutube', 'tools.summarizeStream'],
  },
  { name: 'shared', what: 'shared-meeting views', limit: 'RATE_LIMIT_SHARED', procedures: ['share.view'] },
  { name: 'webhook-test', what: 'webhook tests', limit: 'RATE_LIMIT_WEBHOOK_TEST', procedures: ['webhooks.test'] },
  { name: 'checkout', what: 'payment page requests', limit: 'RATE_LIMIT_CHECKOUT', procedures: ['billing.subscribe', 'billing.portal'] },
  { name: 'youtube-info', what: 'YouTube look-ups', limit: 'RATE_LIMIT_YOUTUBE_INFO', procedures: ['tools.youtubeInfo'] },
];

/**
 * The client as per-address limits count it: an IPv4 address, or the /64 network of an IPv6 address
 * (one subscriber's allocation, whose addresses it may rotate through at will). Burst and daily limits
 * both key by it.
 */
export function clientAddressKey(ip: string): string {
  return normalizeIP(ip, 64);
}

/** Prefix of the counters' keys in Redis. */
const REDIS_NAMESPACE = 'mbox-rate-limit:';

function retryIn(seconds: number): string {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * Per-client-address limits (@fastify/rate-limit) on the calls of RATE_LIMIT_BUCKETS. Counters live in
 * Redis when REDIS_URL is set, else in the database (RateLimitHit), so every instance of a deployment
 * counts together. Answers 429 with Retry-After.
 */
export async function registerRateLimits(app: App, deps: AppDeps, procedures: ProcedureResolver): Promise<void> {
  for (const bucket of RATE_LIMIT_BUCKETS) {
    const unknown = bucket.procedures.filter((name) => !procedures.has(name));
    if (unknown.length) throw new Error(`rate limit '${bucket.name}' names unknown procedures: ${unknown.join(', ')}`);
  }

  // ioredis is loaded only when a deployment uses Redis.
  const redis = deps.config.REDIS_URL
    ? new (await import('ioredis')).Redis(deps.config.REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 5000, lazyConnect: true })
    : null;
  if (redis) {
    redis.on('error', (error: Error) => deps.log.warn({ err: error }, 'rate limit: Redis connection failed'));
    await redis.connect().catch((error: unknown) => {
      throw new Error(`Cannot connect to REDIS_URL (rate limits): ${error instanceof Error ? error.message : String(error)}`);
    });
    app.addHook('onClose', async () => void (await redis.quit()));
  }
  await app.register(fastifyRateLimit, {
    global: false,
    store: redis ? redisRateLimitStore(redis, REDIS_NAMESPACE) : databaseRateLimitStore(deps.db, deps.log),
  });

  const limiters = RATE_LIMIT_BUCKETS.map((bucket) => {
    const { max, windowMs } = deps.config[bucket.limit];
    const procedureNames = new Set(bucket.procedures);
    return {
      bucket,
      counts: (names: string[]) => names.filter((name) => procedureNames.has(name)).length,
      hit: app.createRateLimit({ max, timeWindow: windowMs, keyGenerator: (request) => `${bucket.name}:${clientAddressKey(request.ip)}` }),
    };
  });

  app.addHook('onRequest', async (request, reply) => {
    const names = procedures.resolve(request).map((call) => call.name);
    if (!names.length) return;
    for (const limiter of limiters) {
      // A batch naming a throttled call n times counts n hits: batching gains nothing.
      for (let i = limiter.counts(names); i > 0; i--) {
        let result: Awaited<ReturnType<typeof limiter.hit>>;
        try {
          result = await limiter.hit(request);
        } catch (error) {
          request.log.error({ err: error }, 'rate limit: the counter store failed');
          return sendApiError(request, reply, 503, 'The server cannot check its rate limits right now: try again shortly');
        }
        if (!result.isAllowed && result.isExceeded) {
          const seconds = Math.max(1, result.ttlInSeconds);
          void reply.header('retry-after', String(seconds));
          return sendApiError(request, reply, 429, `Too many ${limiter.bucket.what} from your address: try again in ${retryIn(seconds)}`);
        }
      }
    }
  });
}
