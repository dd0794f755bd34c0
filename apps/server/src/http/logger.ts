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
