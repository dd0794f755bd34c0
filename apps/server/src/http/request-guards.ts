import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { publicOrigin, type Config } from '../config.js';
import type { AppDeps } from '../deps.js';
import { appRouter } from '../trpc/app-router.js';
import { sendApiError } from './error-body.js';
import { ProcedureResolver } from './procedures.js';
import { registerRateLimits } from './rate-limit.js';

type App = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>;

/**
 * Origin of the Mbox extension as the repository builds it: Chrome derives the id from the manifest's
 * `key` (MANIFEST_KEY in apps/extension/build.ts; request-guards.test.ts keeps the two in step). A store
 * build has another id: add it to EXTENSION_ORIGINS.
 */
export const EXTENSION_ORIGIN = 'chrome-extension://gdpebbbflogohfolilalmebjdpkopjfp';

/** Paths any Host may reach: orchestrators probe the health check by pod address, and it tells nothing. */
const ANY_HOST_PATHS = new Set(['/healthz']);

const API_PATH = /^\/(v1|trpc)\//;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** localhost, *.localhost, 127.0.0.0/8 and [::1]: names that only ever reach this machine. */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]';
}

/** Host name of a Host header value, lower-case, without port or trailing dot ('' when malformed). */
function hostnameOf(host: string): string {
  const lower = host.trim().toLowerCase();
  const name = lower.startsWith('[') ? lower.slice(0, lower.indexOf(']') + 1) : (lower.split(':', 1)[0] ?? '');
  return name.replace(/\.$/, '');
}

/** The normalised origin of an Origin header or config entry; null for `null` and anything unparsable. */
function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin.toLowerCase();
    // URL gives non-web schemes the opaque origin 'null': an extension's origin is its scheme and id.
    if (url.protocol === 'chrome-extension:' && url.host) return `chrome-extension://${url.host.toLowerCase()}`;
    return null;
  } catch {
    return null;
  }
}

export function hostAllowList(config: Config): (hostname: string) => boolean {
  const allowed = new Set([new URL(publicOrigin(config)).hostname.toLowerCase(), ...config.ALLOWED_HOSTS]);
  return (hostname) => hostname !== '' && (isLoopbackHostname(hostname) || allowed.has(hostname));
}

/**
 * Origins whose pages may make state-changing calls: the web app's (PUBLIC_URL, and whatever allowed
 * Host the request itself is addressed to: the app served under that name, or the Vite dev server
 * proxying to it), CORS_ORIGIN's, and the extension's.
 */
export function originAllowList(config: Config): (origin: string, requestHost: string) => boolean {
  const allowed = new Set(
    [publicOrigin(config), ...(config.CORS_ORIGIN ?? '').split(','), EXTENSION_ORIGIN, ...config.EXTENSION_ORIGINS]
      .map((entry) => originOf(entry.trim()))
      .filter((origin) => origin !== null),
  );
  return (value, requestHost) => {
    const origin = originOf(value);
    if (origin === null) return false;
    if (allowed.has(origin)) return true;
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === requestHost.trim().toLowerCase();
  };
}

/**
 * The Host and Origin checks, then the rate limits (docs/security.md). Registered before any route:
 * - a request addressed to a Host that is neither PUBLIC_URL's, an ALLOWED_HOSTS entry nor a loopback
 *   name is answered 421, so a page whose name was rebound to this machine's address reads nothing;
 * - a state-changing API call (any method but GET/HEAD/OPTIONS, or a GET that runs a mutation) that
 *   carries an Origin must come from an allowed origin, else 403. Calls without Origin (curl, scripts,
 *   the Stripe webhook, mail clients) are not browsers' cross-site requests and pass.
 */
export async function registerRequestGuards(app: App, deps: AppDeps): Promise<void> {
  const procedures = new ProcedureResolver(appRouter, '/trpc');
  const hostAllowed = hostAllowList(deps.config);
  const originAllowed = originAllowList(deps.config);

  const changesState = (request: FastifyRequest) =>
    API_PATH.test(request.url) &&
    (!SAFE_METHODS.has(request.method) || procedures.resolve(request).some((call) => call.type === 'mutation'));

  app.addHook('onRequest', async (request, reply) => {
    // Fastify's request.host is X-Forwarded-Host when TRUST_PROXY trusts the sender, else Host.
    const host = request.host;
    if (!ANY_HOST_PATHS.has(request.url.split('?', 1)[0] ?? '') && !hostAllowed(hostnameOf(host))) {
      request.log.info({ host }, 'refused: host not served');
      return sendApiError(
        request,
        reply,
        421,
        `This server does not answer for host '${host}': only its public address and loopback names (see ALLOWED_HOSTS)`,
      );
    }
    const { origin } = request.headers;
    if (origin !== undefined && changesState(request) && !originAllowed(origin, host)) {
      request.log.info({ origin }, 'refused: origin not allowed');
      return sendApiError(request, reply, 403, `Requests from origin '${origin}' are not allowed`);
    }
  });

  await registerRateLimits(app, deps, procedures);
}
