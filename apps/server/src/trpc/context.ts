// Types of request.cookies and reply.setCookie (the plugin is registered in app.ts).
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_COOKIE, CSRF_COOKIE, CSRF_HEADER } from '@mbox/shared';
import type { AppDeps } from '../deps.js';
import { csrfMatches, type CookieJar } from '../modules/auth/cookies.js';
import { authenticateBearer, FirebaseAccountRefused, type AuthUser } from '../modules/auth/service.js';
import { authenticateAccessToken, CredentialRefused } from '../modules/auth/sessions.js';

export interface Context {
  deps: AppDeps;
  /** The request's logger: every line carries its request id. */
  log: AppDeps['log'];
  /** Fastify's id of the request, shown to the client on a 500 so the log line can be found. */
  requestId: string;
  user: AuthUser | null;
  /** The session the call was made with; null for extension tokens, Firebase ID tokens and no sign-in. */
  sessionId: string | null;
  /** Why the credentials sent were refused: the 401/403 of a call that needs a user names it. */
  authRefusal: AuthRefusal | null;
  /** Client address, for limits on public calls. */
  ip: string;
  /** Host name the client addressed, lower case, without port (`[::1]` keeps its brackets). */
  host: string;
  userAgent: string;
  /** The request's Accept-Language header (the extension sends the browser's): a new meeting's search language. */
  acceptLanguage: string | undefined;
  /** The web app's session cookies. */
  cookies: CookieJar;
  /** Where the credentials came from: the Authorization header, the web app's session cookie, or none. */
  credentials: 'bearer' | 'cookie' | null;
  /**
   * The call is a bearer call, or it repeated the CSRF cookie in the X-CSRF-Token header. A cookie call
   * without it may come from another site's page: a state-changing one gets no session, whatever its
   * method (the context refuses non-GET ones; the procedure ladder refuses mutations behind GET).
   */
  csrfPassed: boolean;
  /** The browser's Sec-Fetch-Site header (lower case), when it sent one: how the page making the call relates to this origin. */
  fetchSite: string | undefined;
}

export interface AuthRefusal {
  code: 'UNAUTHORIZED' | 'FORBIDDEN';
  message: string;
}

export interface ContextRequest {
  method: string;
  authorization?: string;
  csrfHeader?: string;
  fetchSite?: string | undefined;
  host: string;
  userAgent: string;
  acceptLanguage?: string | undefined;
  ip: string;
  id: string;
  log: AppDeps['log'];
  cookies: CookieJar;
}

/** Reads what the context needs from a Fastify request; cookies are set on its reply (@fastify/cookie). */
export function contextRequest(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): ContextRequest {
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  return {
    method: req.method,
    authorization: header('authorization'),
    csrfHeader: header(CSRF_HEADER),
    fetchSite: header('sec-fetch-site')?.toLowerCase(),
    host: hostName(req.host ?? ''),
    userAgent: header('user-agent') ?? '',
    acceptLanguage: header('accept-language'),
    ip: req.ip,
    id: req.id,
    // The request's own logger (Fastify's child of the app's pino logger, bound to reqId): no second child per request.
    log: req.log as AppDeps['log'],
    cookies: {
      get: (name) => req.cookies[name],
      set: (name, value, options) =>
        void reply.setCookie(name, value, {
          httpOnly: options.httpOnly,
          path: options.path,
          maxAge: options.maxAgeSeconds,
          secure: options.secure,
          sameSite: options.sameSite,
        }),
    },
  };
}

/** `localhost:3000` → `localhost`, `[::1]:3000` → `[::1]`. */
export function hostName(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  return lower.split(':')[0] ?? '';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const CSRF_REFUSAL: AuthRefusal = {
  code: 'FORBIDDEN',
  message: `CSRF check failed: a state-changing call signed in by cookie must repeat the ${CSRF_COOKIE} cookie in the X-CSRF-Token header`,
};

/**
 * Builds the context of one call. Credentials come from the `Authorization: Bearer` header (API
 * clients, the extension) or, for the web app, from its httpOnly access cookie; never from the URL.
 */
export async function createContext(deps: AppDeps, request: ContextRequest): Promise<Context> {
  const bearer = request.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const cookieToken = request.cookies.get(ACCESS_COOKIE);
  const stateChanging = !SAFE_METHODS.has(request.method.toUpperCase());
  // Bearer calls need no CSRF token: another site's page cannot make the browser add that header.
  const csrfPassed = bearer !== undefined || csrfMatches(request.cookies.get(CSRF_COOKIE), request.csrfHeader);
  const credentials: Context['credentials'] = bearer !== undefined ? 'bearer' : cookieToken !== undefined ? 'cookie' : null;
  const base = {
    deps,
    log: request.log,
    requestId: request.id,
    ip: request.ip,
    host: request.host,
    userAgent: request.userAgent,
    acceptLanguage: request.acceptLanguage,
    cookies: request.cookies,
    credentials,
    csrfPassed,
    fetchSite: request.fetchSite,
  };
  const anonymous = (authRefusal: AuthRefusal | null): Context => ({ ...base, user: null, sessionId: null, authRefusal });

  if (bearer === undefined && cookieToken === undefined) return anonymous(null);
  if (stateChanging && !csrfPassed) return anonymous(CSRF_REFUSAL);
  try {
    const { user, sessionId } =
      bearer !== undefined ? await authenticateBearer(deps, bearer) : await authenticateAccessToken(deps, cookieToken ?? '');
    return { ...base, user, sessionId, authRefusal: null };
  } catch (error) {
    if (!(error instanceof CredentialRefused)) throw error;
    // A genuine Firebase user whose account may not sign in here: signing in again would not help.
    if (error instanceof FirebaseAccountRefused) return anonymous({ code: 'FORBIDDEN', message: error.message });
    return anonymous({ code: 'UNAUTHORIZED', message: `Sign in required: ${error.message}` });
  }
}
