import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config.js';

/** Field names that hold credentials wherever they appear in a logged object (bodies, inputs, errors). */
const SECRET_FIELDS = ['authorization', 'cookie', 'set-cookie', 'token', 'accessToken', 'refreshToken', 'idToken', 'password', 'secret', 'connectionParams'];

/**
 * pino redact paths: each secret field at the top level and up to three levels down, and every header
 * object's credentials. pino's wildcards match one level each, hence the explicit depths.
 */
export const REDACT_PATHS = [
  ...SECRET_FIELDS.flatMap((field) => {
    const key = `["${field}"]`;
    return [key, `*${key}`, `*.*${key}`, `*.*.*${key}`];
  }),
];

/** A share link's token in a path (the page /shared/<token>, GET /v1/shared/<token>): it opens the meeting. */
const SHARE_TOKEN_IN_PATH = /^(\/(?:v1\/)?shared\/)[^/]+/i;

/**
 * What a request's log lines say about it: no headers, and the path without its query, which can
 * carry tokens (an unsubscribe link's token, an SSE client's connection params, a tRPC GET's input),
 * nor a share link's token.
 */
function requestSummary(request: unknown) {
  if (!request || typeof request !== 'object') return request;
  const { method, url, host, ip } = request as Partial<Record<'method' | 'url' | 'host' | 'ip', unknown>>;
  const path = typeof url === 'string' ? url.split('?', 1)[0]?.replace(SHARE_TOKEN_IN_PATH, '$1[redacted]') : undefined;
  return { method, path, host, remoteAddress: ip };
}

/** A request line as a person reads it: `request completed GET /v1/meeting-list 200 (3 ms)`. */
function readableMessage(log: Record<string, unknown>, messageKey: string): string {
  const message = String(log[messageKey] ?? '');
  const req = log.req as { method?: unknown; path?: unknown } | undefined;
  if (!req || typeof req !== 'object') return message;
  const status = (log.res as { statusCode?: unknown } | undefined)?.statusCode;
  const time = typeof log.responseTime === 'number' ? ` (${Math.round(log.responseTime)} ms)` : '';
  return `${message} ${String(req.method)} ${String(req.path)}${status === undefined ? '' : ` ${String(status)}`}${time}`;
}

/**
 * Where the log goes: readable lines (pino-pretty) when LOG_FORMAT is `pretty`, or `auto` and stdout is a
 * terminal (`npm start` in a shell); otherwise undefined, pino's JSON lines on stdout (containers, log
 * collectors, pipes). pino-pretty is loaded only then. Writes are synchronous, like pino's own stdout,
 * so the last lines before an exit are not lost.
 */
export async function logDestination(
  config: Pick<Config, 'LOG_FORMAT'>,
  stdout: { isTTY?: boolean } = process.stdout,
): Promise<DestinationStream | undefined> {
  const terminal = stdout.isTTY === true;
  if (config.LOG_FORMAT === 'json' || (config.LOG_FORMAT === 'auto' && !terminal)) return undefined;
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    colorize: terminal,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,responseTime',
    singleLine: true,
    messageFormat: readableMessage,
    sync: true,
  });
}

/** The server's logger (main.ts, and the test server): credentials redacted by configuration. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      // Fastify takes the logger's serializers over its own; `req` is what each request line logs.
      serializers: { req: requestSummary },
    },
    destination,
  );
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's answered calls are logged at debug, refused ones at info (see RequestLogController). */
    quietRequestLine?: boolean;
  }
}

/**
 * One request line at info, when the request completes, with what it was, its status and its time;
 * the line at its start is debug. Every line is redacted, and Fastify's two lines at info were a tenth
 * of a small read's CPU. A long-lived stream (a live view) is logged at info when it ends. A route with
 * `config: { quietRequestLine: true }` (the extension's calls: one a second per open meeting would be
 * most of the log) logs its answered calls at debug.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else {
      const quiet = request.routeOptions.config.quietRequestLine === true && reply.statusCode < 400;
      reply.log[quiet ? 'debug' : 'info']({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}

const LEVEL_METHODS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace']);

/**
 * Fastify's childLoggerFactory: a request's logger that becomes a pino child only when it first writes
 * a line at an enabled level. Making a child runs its bindings through the redaction (the wildcard paths
 * match every top-level key): about 18 kB of garbage per request, while most of the extension's calls
 * write no line at all (their request line is debug). Anything else asked of it makes the child.
 */
export function lazyChildLogger(parent: FastifyBaseLogger, bindings: pino.Bindings, options: pino.ChildLoggerOptions): FastifyBaseLogger {
  // A route's own log level (Fastify's `logLevel`) is the child's, not the parent's: such a child is made at once.
  if (options.level !== undefined) return parent.child(bindings, options);
  let child: FastifyBaseLogger | undefined;
  const made = () => (child ??= parent.child(bindings, options));
  return new Proxy(parent, {
    get(_, property) {
      if (!child && typeof property === 'string' && LEVEL_METHODS.has(property)) {
        return (...args: unknown[]) => {
          // The app's logger is pino's (createLogger): it says which levels are on.
          if (!(parent as Logger).isLevelEnabled(property)) return;
          (made()[property as 'info'] as (...a: unknown[]) => void)(...args);
        };
      }
      // Fastify checks that a request's logger has `child` (and every level method) as it makes one.
      if (!child && property === 'child') return (childBindings: pino.Bindings, childOptions?: pino.ChildLoggerOptions) => made().child(childBindings, childOptions);
      const target = made();
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    set(_, property, value) {
      return Reflect.set(made(), property, value);
    },
  });
}
