import { resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { firebaseWebConfigSchema } from '@mbox/shared';
import { repoRoot } from './db/paths.js';

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const flag = z.preprocess(
  emptyAsUndefined,
  z.enum(['true', 'false', '1', '0']).optional().transform((v) => v === 'true' || v === '1'),
);

/** A comma-separated list, each entry checked by `valid` (which names the expected form). */
const commaList = (valid: (entry: string) => boolean, expected: string) =>
  z.preprocess(emptyAsUndefined, z.string().optional()).transform((value, ctx) => {
    const entries = (value ?? '').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean);
    for (const entry of entries) {
      if (!valid(entry)) ctx.addIssue({ code: 'custom', message: `'${entry}' is not ${expected}` });
    }
    return entries;
  });

/** The Firebase client's web config, read as JSON once at start rather than on every sign-in page load. */
const firebaseWebConfig = z.preprocess(emptyAsUndefined, z.string().optional()).transform((value, ctx) => {
  if (value === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    json = undefined;
  }
  const parsed = firebaseWebConfigSchema.safeParse(json);
  if (!parsed.success) {
    ctx.addIssue({ code: 'custom', message: 'FIREBASE_WEB_CONFIG must be the JSON of a Firebase web config, with apiKey, authDomain and projectId' });
    return z.NEVER;
  }
  return parsed.data;
});

const WINDOW_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;

/** A rate limit written `<requests>/<window>`, e.g. `10/1m`, `100/30s`, `10/1h`. */
const rateLimit = (fallback: string) =>
  z
    .preprocess(emptyAsUndefined, z.string().default(fallback))
    .transform((value, ctx) => {
      const match = /^(\d+)\/(\d+)(s|m|h)$/.exec(value.trim());
      const max = Number(match?.[1]);
      const windowMs = Number(match?.[2]) * WINDOW_MS[(match?.[3] ?? 's') as keyof typeof WINDOW_MS];
      if (!match || max < 1 || windowMs < 1000) {
        ctx.addIssue({ code: 'custom', message: `'${value}' is not <requests>/<window> with a window in s, m or h (e.g. 10/1m)` });
        return z.NEVER;
      }
      return { max, windowMs };
    });

/** Daily token budgets are counted in a 32-bit column: larger budgets are refused, not wrapped. */
const MAX_DAILY_TOKENS = 2_000_000_000;
/** Comma-separated `host:port` pairs an outbound request may reach although private, local or on another port. */
const hostPortList = commaList(
  (host) => /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/.test(host),
  'host:port (e.g. wiki.intranet:8080)',
);

/** Names proxy-addr (Fastify's trustProxy) gives to the loopback, link-local and private ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IPv4 or IPv6 address, with or without a /prefix. */
function isAddressOrNetwork(entry: string): boolean {
  return entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
}

/** TRUST_PROXY: false (no proxy), a hop count, or the proxies' addresses and networks. */
const trustProxy = z.preprocess(emptyAsUndefined, z.string().optional()).transform((value, ctx): false | number | string[] => {
  const text = (value ?? 'false').trim().toLowerCase();
  if (text === 'false' || text === '0') return false;
  if (text === 'true') {
    ctx.addIssue({
      code: 'custom',
      message:
        "'true' would trust every X-Forwarded-For hop, so any client could choose its own address: give the number of " +
        'reverse proxies in front of the server (e.g. 1) or their addresses (e.g. 127.0.0.1,10.0.0.0/8)',
    });
    return z.NEVER;
  }
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    if (!PROXY_RANGE_NAMES.has(entry) && !isAddressOrNetwork(entry)) {
      ctx.addIssue({
        code: 'custom',
        message: `'${entry}' is not a hop count, an IP address, a CIDR network or one of loopback, linklocal, uniquelocal`,
      });
    }
  }
  return entries;
});

/** An https:, http: or mailto: address a person is sent to; optional. */
function externalLink(name: string) {
  return optionalString.pipe(
    z
      .string()
      .refine((v) => /^(https?|mailto):/i.test(v) && URL.canParse(v), `${name} must be an http(s): or mailto: URL`)
      .optional(),
  );
}

/** Every environment variable the server reads, validated once at start-up. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /** Public origin of the web app (links in e-mails, referral links); defaults to http://localhost:PORT. */
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty`: readable lines (pino-pretty); `json`: one JSON object a line; `auto`: pretty when stdout is a terminal. */
  LOG_FORMAT: z.preprocess(emptyAsUndefined, z.enum(['auto', 'pretty', 'json']).default('auto')),

  DATABASE_URL: optionalString,
  DATA_DIR: z.string().default(resolve(repoRoot, 'data')),

  /** local: passwordless accounts with server-issued JWTs; firebase: Google sign-in via Firebase Auth. */
  AUTH_MODE: z.enum(['local', 'firebase']).default('local'),
  /** Local mode refuses non-loopback HOST unless this is set. */
  ALLOW_LOCAL_AUTH_ON_NETWORK: flag,
  /** Signs session JWTs; generated and stored in DATA_DIR when absent. */
  AUTH_SECRET: optionalString.pipe(z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional()),
  FIREBASE_PROJECT_ID: optionalString,
  /** Web config for the Firebase client (JSON), handed to the web app; required in firebase mode. */
  FIREBASE_WEB_CONFIG: firebaseWebConfig,
  /**
   * host:port of the Firebase Auth emulator (development and tests): the web app signs in there, and
   * firebase-admin (which reads it from the environment itself) accepts its unsigned tokens.
   */
  FIREBASE_AUTH_EMULATOR_HOST: optionalString.pipe(
    z.string().regex(/^[\w.-]+:\d+$/, 'FIREBASE_AUTH_EMULATOR_HOST must be host:port, e.g. 127.0.0.1:9099').optional(),
  ),

  /** 32-byte key (base64) that wraps per-user data keys; generated and stored in DATA_DIR when absent. */
  ENCRYPTION_MASTER_KEY: optionalString,

  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString.pipe(z.url().optional()),
  OPENAI_MODEL_BASIC: z.string().default('gpt-4o-mini'),
  OPENAI_MODEL_ADVANCED: z.string().default('gpt-4o'),
  /** Prompt list of product.md, Limits the summary panel offers: `default` (10 prompt types) or `alternate` (4, with Deep Summary). */
  SUMMARY_PROMPT_LIST: z.enum(['default', 'alternate']).default('default'),
  /** Context window (tokens) assumed for the model; longer transcripts are summarised in chunks. */
  LLM_CONTEXT_TOKENS: z.coerce.number().int().min(512).default(16000),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).default(60000),
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  LLM_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  /**
   * Count generations of the offline engine against the free plan's daily limit too. Off by default:
   * they cost no LLM spend, only CPU (docs/ai.md, "Daily limits").
   */
  AI_COUNT_OFFLINE: flag,
  /** LLM tokens (input + output) a Basic account may use per UTC day; 0 = unlimited. */
  AI_DAILY_TOKENS_FREE: z.coerce.number().int().min(0).max(MAX_DAILY_TOKENS).default(200_000),
  /** LLM tokens (input + output) a premium account may use per UTC day; 0 = unlimited. */
  AI_DAILY_TOKENS_PREMIUM: z.coerce.number().int().min(0).max(MAX_DAILY_TOKENS).default(2_000_000),
  /** Worker threads of the offline engine; unset = one less than the CPU cores, 1 to 4. */
  OFFLINE_AI_THREADS: z.coerce.number().int().min(1).max(32).optional(),

  /** SMTP server of recap e-mails (smtp://user:pass@host:587, smtps://...); without it they go to DATA_DIR/outbox. */
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Mbox <no-reply@localhost>'),
  /** A meeting with no new line for this long is ended by the idle sweep (fractions allowed, for tests). */
  MEETING_IDLE_MINUTES: z.coerce.number().positive().default(10),
  /**
   * Lines one meeting may hold; a capture batch that would store more is refused whole with 413
   * (docs/security.md, "Meeting size").
   */
  MAX_LINES_PER_MEETING: z.coerce.number().int().min(1).max(10_000_000).default(50_000),
  /** Bytes of stored line text (UTF-8; sealed text as stored) one meeting may hold; past it, 413 as above. */
  MAX_MEETING_TEXT_BYTES: z.coerce.number().int().min(1024).max(2_000_000_000).default(20 * 1024 * 1024),
  /** How often the idle sweep runs. */
  MEETING_SWEEP_SECONDS: z.coerce.number().min(1).default(60),
  /** First retry delay of a recap that failed temporarily (4xx, dropped connection); doubles each time. */
  RECAP_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).default(15),
  /** Most recap addresses an account may name (redirectEmails and whiteEmailList together). */
  RECAP_RECIPIENTS_MAX: z.coerce.number().int().min(1).max(1000).default(20),
  /**
   * Most e-mails an account's recaps and recipient confirmations may send per UTC day (each address
   * of a recap counts); 0 = unlimited.
   */
  RECAP_EMAILS_PER_DAY: z.coerce.number().int().min(0).max(1_000_000).default(50),
  /** How long a recipient's confirmation link can confirm (declining works with an older link too). */
  RECIPIENT_CONFIRM_HOURS: z.coerce.number().positive().max(24 * 365).default(168),
  /** How often job workers look for work. */
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).default(2),
  /**
   * A running job's heartbeat keeps it alive; a job whose process died is given up after this long
   * and retried (the sum with JOB_MAINTENANCE_SECONDS and the retry delay bounds how late it gets).
   */
  JOB_EXPIRE_SECONDS: z.coerce.number().int().min(3).default(45),
  /** How often the queue's maintenance runs (it expires the jobs of dead processes). */
  JOB_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).default(15),
  /** Test-only crash point of the recap job (honoured only when NODE_ENV=test): the process exits there. */
  MBOX_TEST_CRASH_AT: z.preprocess(emptyAsUndefined, z.enum(['before-generate', 'after-generate', 'after-smtp']).optional()),
  /** First retry delay of a failed webhook delivery; doubles each time, 8 retries (docs/webhooks.md). */
  WEBHOOK_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).default(30),

  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Lets tests point the Stripe SDK at a compatible server: http://127.0.0.1:12111 */
  STRIPE_API_BASE: optionalString.pipe(z.url().optional()),
  /** Stripe Price ids (price_...) of the monthly plans; a plan without one cannot be bought here. */
  STRIPE_PRICE_PRO: optionalString,
  STRIPE_PRICE_SUMMARIZER: optionalString,
  /** Page (https: or mailto:) the Enterprise Plan card opens; without it the card is not shown. */
  ENTERPRISE_CONTACT_URL: externalLink('ENTERPRISE_CONTACT_URL'),
  /** The More menu's Support link (opens in a new tab); without it the item is not shown. */
  SUPPORT_URL: externalLink('SUPPORT_URL'),
  /** The More menu's Anonymous feedback link (opens in a new tab); without it the item is not shown. */
  FEEDBACK_URL: externalLink('FEEDBACK_URL'),

  /**
   * Hosts the link summarizer may fetch although they are private or local, or on a port other than
   * 80/443: comma-separated `host:port` (e.g. `wiki.intranet:8080,127.0.0.1:4100`). The only bypass
   * of the fetch's address checks (docs/summarizer.md).
   */
  SUMMARIZER_ALLOWED_HOSTS: hostPortList,
  /**
   * The same for outgoing webhooks, kept apart: opening an intranet page to the summarizer must not
   * let every user aim webhooks (a POST with a body they choose) at it (docs/webhooks.md).
   */
  WEBHOOK_ALLOWED_HOSTS: hostPortList,
  /** Whole-fetch deadline of a summarised web page, redirects and a slow body included. */
  SUMMARIZER_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120000).default(10000),
  /** Largest web page (bytes) the link summarizer reads; larger pages are refused. */
  SUMMARIZER_MAX_PAGE_BYTES: z.coerce.number().int().min(1024).default(2 * 1024 * 1024),
  /** Where YouTube's player API and captions are read (tests point it at a local server). */
  YOUTUBE_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default('https://www.youtube.com')),

  /** Origin of the web app allowed to call the API cross-origin (dev server). */
  CORS_ORIGIN: optionalString,
  /**
   * Which peers may tell the client address (X-Forwarded-For) and host (X-Forwarded-Host), as Fastify's
   * trustProxy reads them: unset or `false` for none, the number of reverse proxies in front of the server
   * (`1`), or their addresses and networks (`127.0.0.1,10.0.0.0/8`). Never every hop: then a client could
   * pick its own address and dodge per-address limits.
   */
  TRUST_PROXY: trustProxy,

  /**
   * Host names requests may be addressed to besides PUBLIC_URL's host and loopback names, comma-separated
   * (e.g. `mbox.internal,192.168.1.20`); a request for any other Host is refused with 421, which stops
   * DNS-rebinding pages (docs/security.md). Behind TRUST_PROXY the forwarded host (X-Forwarded-Host) is checked.
   */
  ALLOWED_HOSTS: commaList((h) => /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/.test(h), 'a host name without port (e.g. mbox.internal)'),
  /**
   * Browser-extension origins allowed to make state-changing calls besides the one the repository's
   * extension key pins (chrome-extension://gdpebbbflogohfolilalmebjdpkopjfp): a store build's id.
   */
  EXTENSION_ORIGINS: commaList((o) => /^chrome-extension:\/\/[a-p]{32}$/.test(o), 'chrome-extension://<32-letter id>'),
  /**
   * Redis (redis://host:6379) holding the rate-limit counters and carrying live events, shared by every
   * instance; without it the counters live in the database and events go through PostgreSQL NOTIFY.
   */
  REDIS_URL: optionalString.pipe(z.url().optional()),
  /** Channel of live events between instances (NOTIFY or Redis); deployments sharing one Redis need one each. */
  EVENTS_CHANNEL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'EVENTS_CHANNEL must be lower-case letters, digits and _ (at most 63), not starting with a digit')
      .default('mbox_events'),
  ),
  /** Sign-ins (local login, Firebase session exchange) per client address. */
  RATE_LIMIT_SIGN_IN: rateLimit('10/1m'),
  /** Token minting (extension tokens, session refresh) per client address. */
  RATE_LIMIT_TOKENS: rateLimit('30/1m'),
  /** Referral acceptances per client address. */
  RATE_LIMIT_REFERRAL: rateLimit('10/1h'),
  /** Summarizer calls (text, link, YouTube; signed in or not) per client address, on top of the daily limits. */
  RATE_LIMIT_SUMMARIZER: rateLimit('20/1m'),
  /** Shared-meeting views (GET /v1/shared/{token}) per client address: tokens cannot be probed in bulk. */
  RATE_LIMIT_SHARED: rateLimit('60/1m'),
  /** Webhook test pings per client address: each is a signed POST the server sends to a host the user names. */
  RATE_LIMIT_WEBHOOK_TEST: rateLimit('10/1h'),
  /** Stripe Checkout and customer-portal links per client address: each is a call to Stripe's API. */
  RATE_LIMIT_CHECKOUT: rateLimit('20/1h'),
  /** YouTube video look-ups (GET /v1/utils/youtube) per client address: each is a request to YouTube. */
  RATE_LIMIT_YOUTUBE_INFO: rateLimit('30/1m'),
}).superRefine((config, ctx) => {
  if (config.AUTH_MODE === 'firebase' && !config.FIREBASE_WEB_CONFIG) {
    ctx.addIssue({ code: 'custom', path: ['FIREBASE_WEB_CONFIG'], message: 'AUTH_MODE=firebase needs FIREBASE_WEB_CONFIG: the web app signs in with it' });
  }
});

export type Config = z.infer<typeof configSchema>;

/** Origin of the web app that links sent outside (referral links, payment return pages) open. */
export function publicOrigin(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${problems}`);
  }
  return parsed.data;
}
