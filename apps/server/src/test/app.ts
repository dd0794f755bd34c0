import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import { AiEngine } from '../ai/index.js';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import type { AppDeps } from '../deps.js';
import { EventBus } from '../events.js';
import { createLogger } from '../http/logger.js';
import { Jobs } from '../jobs/jobs.js';
import type { AppRouter } from '../trpc/app-router.js';
import type { ContextRequest } from '../trpc/context.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestApp {
  deps: AppDeps;
  db: TestDatabase;
  /** Origin of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Signs in a local account and returns its bearer (access) token. */
  signIn(email?: string): Promise<string>;
  /** Calls the REST facade with a JSON body and bearer token; returns status and parsed body. */
  rest<T = unknown>(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; rawBody?: string },
  ): Promise<{ status: number; body: T }>;
  /** Typed tRPC client authenticated as `token`. */
  trpc(token?: string): ReturnType<typeof createTRPCClient<AppRouter>>;
  close(): Promise<void>;
}

/** What createContext reads, for calling procedures without HTTP: a bearer call from `ip`. */
export function bearerContextRequest(deps: AppDeps, options: { token?: string; ip: string }): ContextRequest {
  return {
    method: 'POST',
    authorization: options.token ? `Bearer ${options.token}` : undefined,
    host: '127.0.0.1',
    userAgent: 'test',
    ip: options.ip,
    id: 'test',
    log: deps.log,
    cookies: { get: () => undefined, set: () => {} },
  };
}

/** Tests sign in and summarise far faster than people; the rate-limit tests set their own limits. */
const TEST_RATE_LIMITS = {
  RATE_LIMIT_SIGN_IN: '100000/1m',
  RATE_LIMIT_TOKENS: '100000/1m',
  RATE_LIMIT_REFERRAL: '100000/1m',
  RATE_LIMIT_SUMMARIZER: '100000/1m',
  RATE_LIMIT_SHARED: '100000/1m',
  RATE_LIMIT_WEBHOOK_TEST: '100000/1m',
  RATE_LIMIT_CHECKOUT: '100000/1m',
  RATE_LIMIT_YOUTUBE_INFO: '100000/1m',
};

/** Starts the real server on a new test database, listening on a random loopback port. */
export async function startTestApp(
  overrides: Partial<Config> = {},
  options: { webDist?: string | null; embeddedDatabase?: boolean; extensionZipDir?: string } = {},
): Promise<TestApp> {
  const db = await createTestDatabase({ embedded: options.embeddedDatabase === true });
  const config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', DATA_DIR: '/nonexistent', ...TEST_RATE_LIMITS }),
    ...overrides,
  };
  const shutdown = new AbortController();
  const log = createLogger(config);
  const deps: AppDeps = {
    ai: AiEngine.fromConfig(config),
    config,
    database: db,
    db: db.prisma,
    events: new EventBus(),
    jobs: new Jobs(config, db, db.url, log),
    log,
    secrets: {
      authSecret: new TextEncoder().encode('test-secret-test-secret-test-secret-0123'),
      masterKey: Buffer.alloc(32, 7),
    },
    shutdown: shutdown.signal,
  };
  const app = await buildApp(deps, { webDist: options.webDist ?? null, extensionZipDir: options.extensionZipDir });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const rest: TestApp['rest'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as never };
  };

  return {
    deps,
    db,
    url,
    rest,
    async signIn(email = 'user@example.com') {
      const { status, body } = await rest<{ token: string }>('POST', '/v1/auth/login', { body: { email } });
      if (status !== 200) throw new Error(`sign-in failed: ${status} ${JSON.stringify(body)}`);
      return body.token;
    },
    trpc(token) {
      const headers = (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
      return createTRPCClient<AppRouter>({
        links: [
          splitLink({
            condition: (op) => op.type === 'subscription',
            // SSE authenticates like every call, by header: the eventsource package lets us add one.
            true: httpSubscriptionLink({
              url: `${url}/trpc`,
              EventSource,
              eventSourceOptions: {
                fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...headers() } }),
              },
            }),
            false: httpLink({ url: `${url}/trpc`, headers }),
          }),
        ],
      });
    },
    async close() {
      shutdown.abort();
      await app.close();
      await db.destroy();
    },
  };
}
