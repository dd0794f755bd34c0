import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { Config } from './config.js';

/**
 * Browser features the app never uses: a page injected into it cannot use them either. Only features
 * Chromium knows: an unknown one ('bluetooth', say) makes it log an error on every page.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'serial=()',
  'usb=()',
].join(', ');

/** Answers of these paths carry a user's data: no browser or proxy cache may keep them. */
const API_PATH = /^\/(v1|trpc)(\/|\?|$)/;

/**
 * A share link's page (/shared/<token>) and its answers (REST, and the page's tRPC call): search engines
 * must not index them, and the page's address, whose token opens the meeting, is never sent as Referer.
 */
const SHARED_PATH = /^\/(shared\/|v1\/shared\/|trpc\/[^?]*\bshare\.view\b)/i;

type Directives = Record<string, string[]>;

/**
 * What Firebase's Google sign-in loads (firebase mode only): its script loader, the auth domain's iframe,
 * the token endpoints, and the emulator in development and tests.
 */
function firebaseSources(config: Config): { script: string[]; frame: string[]; connect: string[] } {
  const authDomain = config.FIREBASE_WEB_CONFIG ? [`https://${config.FIREBASE_WEB_CONFIG.authDomain}`] : [];
  const emulator = config.FIREBASE_AUTH_EMULATOR_HOST ? [`http://${config.FIREBASE_AUTH_EMULATOR_HOST}`] : [];
  return {
    script: ['https://apis.google.com'],
    frame: [...authDomain, ...emulator],
    connect: ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com', ...emulator],
  };
}

/**
 * The web app's policy. Vite emits no inline script or style (checked in security-headers.int.test.ts);
 * React's `style` props are set through the CSSOM, which style-src does not govern, so neither scripts
 * nor styles need 'unsafe-inline'. Images may come from any https origin: participants' avatars live
 * on Google's image hosts.
 */
export function webAppDirectives(config: Config): Directives {
  const firebase = config.AUTH_MODE === 'firebase' ? firebaseSources(config) : { script: [], frame: [], connect: [] };
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'script-src': ["'self'", ...firebase.script],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'https:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...firebase.connect],
    // 'self': the Outbox previews a recap e-mail in a frame of its own page (modules/recap/route.ts).
    'frame-src': ["'self'", ...firebase.frame],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
  };
}

function serialize(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * The API explorer at /docs (@fastify/swagger-ui): its scripts are files too, but Swagger UI writes
 * inline styles and data: images, and reads the document from this server.
 */
export function docsPagePolicy(config: Config): string {
  return serialize({
    ...webAppDirectives(config),
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
  });
}

/**
 * Security headers on every response (helmet): CSP, frame-ancestors 'none' and X-Frame-Options DENY,
 * nosniff, Referrer-Policy, Permissions-Policy; `Cache-Control: no-store` on API answers.
 *
 * helmet's middleware is made once, here: @fastify/helmet made it again for every request, parsing the
 * policy each time (7 % of what the server allocated per caption post; docs/performance.md).
 */
export function registerSecurityHeaders(app: FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>, config: Config): void {
  const setHelmetHeaders = helmet({
    // Helmet's defaults add upgrade-insecure-requests, which breaks a server reached over plain http on a LAN.
    contentSecurityPolicy: { useDefaults: false, directives: webAppDirectives(config) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Firebase's sign-in popup reports back through window.opener.
    crossOriginOpenerPolicy: { policy: config.AUTH_MODE === 'firebase' ? 'same-origin-allow-popups' : 'same-origin' },
  });
  // onRequest, before the request guards: their refusals carry these headers too.
  app.addHook('onRequest', (request, reply, done) => {
    setHelmetHeaders(request.raw, reply.raw, (error?: unknown) => {
      if (error) return done(error instanceof Error ? error : new Error(String(error)));
      void reply.header('permissions-policy', PERMISSIONS_POLICY);
      if (API_PATH.test(request.url)) void reply.header('cache-control', 'no-store');
      if (SHARED_PATH.test(request.url)) void reply.header('x-robots-tag', 'noindex, nofollow').header('referrer-policy', 'no-referrer');
      done();
    });
  });
}
