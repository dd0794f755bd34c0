import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ACCESS_COOKIE, CSRF_COOKIE, REFRESH_COOKIE, REFRESH_PATH } from '@mbox/shared';
import type { AppDeps } from '../../deps.js';
import { ACCESS_TTL_MS, type IssuedSession } from './sessions.js';

/** The cookies of one call and the means to set them (an adapter over Fastify's request and reply). */
export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, options: CookieOptions): void;
}

export interface CookieOptions {
  httpOnly: boolean;
  path: string;
  /** 0 deletes the cookie. */
  maxAgeSeconds: number;
  secure: boolean;
  /**
   * Strict: the web app is a single-page app whose shell needs no session, so no cross-site request
   * (not even a top-level link from an e-mail) ever needs the cookies; every call the page makes is
   * same-site and carries them.
   */
  sameSite: 'strict';
}

/** Secure whenever the app is served over https; plain http (localhost, a LAN) would drop Secure cookies. */
function baseOptions(deps: AppDeps) {
  return { secure: deps.config.PUBLIC_URL?.startsWith('https:') === true, sameSite: 'strict' as const };
}

/**
 * Hands a session to the browser: access and refresh tokens httpOnly (page scripts cannot read them),
 * the refresh token sent only to the refresh call, and a readable CSRF token the app echoes in a header.
 */
export function setSessionCookies(deps: AppDeps, jar: CookieJar, session: IssuedSession): void {
  const base = baseOptions(deps);
  const refreshSeconds = Math.floor((session.refreshExpiresAt - Date.now()) / 1000);
  jar.set(ACCESS_COOKIE, session.token, { ...base, httpOnly: true, path: '/', maxAgeSeconds: ACCESS_TTL_MS / 1000 });
  jar.set(REFRESH_COOKIE, session.refreshToken, { ...base, httpOnly: true, path: REFRESH_PATH, maxAgeSeconds: refreshSeconds });
  jar.set(CSRF_COOKIE, randomBytes(24).toString('base64url'), { ...base, httpOnly: false, path: '/', maxAgeSeconds: refreshSeconds });
}

export function clearSessionCookies(deps: AppDeps, jar: CookieJar): void {
  const base = baseOptions(deps);
  jar.set(ACCESS_COOKIE, '', { ...base, httpOnly: true, path: '/', maxAgeSeconds: 0 });
  jar.set(REFRESH_COOKIE, '', { ...base, httpOnly: true, path: REFRESH_PATH, maxAgeSeconds: 0 });
  jar.set(CSRF_COOKIE, '', { ...base, httpOnly: false, path: '/', maxAgeSeconds: 0 });
}

/** Double submit: the header must repeat the CSRF cookie, which only pages of our own site can read. */
export function csrfMatches(cookie: string | undefined, header: string | undefined): boolean {
  if (!cookie || !header) return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(header);
  return a.length === b.length && timingSafeEqual(a, b);
}
