import { z } from 'zod';
import {
  authConfigSchema,
  describeUserAgent,
  extensionTokenListSchema,
  extensionTokenOutputSchema,
  firebaseSignInInputSchema,
  loginInputSchema,
  loginOutputSchema,
  logoutEverywhereInputSchema,
  logoutEverywhereOutputSchema,
  publicUserSchema,
  REFRESH_COOKIE,
  refreshInputSchema,
  refreshOutputSchema,
  revokeByIdInputSchema,
  sessionListSchema,
  webSignInOutputSchema,
} from '@mbox/shared';
import { AppError } from '../../app-error.js';
import { authedProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import { clearSessionCookies, setSessionCookies } from './cookies.js';
import {
  authConfig,
  getPublicUser,
  signInFirebase,
  signInLocal,
} from './service.js';
import { issueExtensionToken, listExtensionTokens, revokeExtensionToken, revokeExtensionTokens } from './extension-tokens.js';
import { listSessions, refreshSession, revokeAllSessions, revokeSession } from './sessions.js';

const tags = ['auth'];

export const authRouter = router({
  config: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/auth/config', tags, protect: false, summary: 'Sign-in mode and client config' } })
    .input(z.void())
    .output(authConfigSchema)
    .query(({ ctx }) => authConfig(ctx.deps)),

  /** API clients: the tokens come back in the body, for `Authorization: Bearer`. */
  login: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/login',
        tags,
        protect: false,
        summary: 'Local-mode sign-in (from this machine only): a 15-minute access token and a refresh token',
      },
    })
    .input(loginInputSchema)
    .output(loginOutputSchema)
    .mutation(async ({ ctx, input }) => {
      const { session, user } = await signInLocal(ctx.deps, input, ctx);
      return { token: session.token, expiresAt: session.expiresAt, refreshToken: session.refreshToken, user };
    }),

  /** The web app's local sign-in: the tokens go into httpOnly cookies, never to page scripts. */
  signIn: publicProcedure
    .input(loginInputSchema)
    .output(webSignInOutputSchema)
    .mutation(async ({ ctx, input }) => {
      const { session, user } = await signInLocal(ctx.deps, input, ctx);
      setSessionCookies(ctx.deps, ctx.cookies, session);
      return { user };
    }),

  /** The web app's Firebase sign-in: a verified Firebase ID token is traded for a session in cookies. */
  firebaseSignIn: publicProcedure
    .input(firebaseSignInInputSchema)
    .output(webSignInOutputSchema)
    .mutation(async ({ ctx, input }) => {
      const { session, user } = await signInFirebase(ctx.deps, input.idToken, ctx.userAgent);
      setSessionCookies(ctx.deps, ctx.cookies, session);
      return { user };
    }),

  refresh: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/refresh',
        tags,
        protect: false,
        summary: 'Trade a refresh token (body, or the web app\u2019s cookie) for a new access and refresh token',
      },
    })
    .input(refreshInputSchema)
    .output(refreshOutputSchema)
    .mutation(async ({ ctx, input }) => {
      // Where the refresh token came from decides where the new pair goes: the body, or the cookies.
      if (input.refreshToken) {
        const session = await refreshSession(ctx.deps, input.refreshToken);
        return { token: session.token, expiresAt: session.expiresAt, refreshToken: session.refreshToken };
      }
      const cookie = ctx.cookies.get(REFRESH_COOKIE);
      if (!cookie) throw new AppError('UNAUTHORIZED', 'Sign in required: no refresh token in the body or cookie');
      if (!ctx.csrfPassed) {
        throw new AppError('FORBIDDEN', 'CSRF check failed: repeat the mbox_csrf cookie in the X-CSRF-Token header');
      }
      const session = await refreshSession(ctx.deps, cookie);
      setSessionCookies(ctx.deps, ctx.cookies, session);
      return { expiresAt: session.expiresAt };
    }),

  /** Ends the session of this call (its cookies are cleared); anyone may call it, it only ends their own. */
  logout: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/logout', tags, protect: false, summary: 'Sign out the session of this call (bearer or cookie); without one it only clears the cookies' } })
    .input(z.void())
    .output(z.object({ revoked: z.boolean() }))
    .mutation(async ({ ctx }) => {
      clearSessionCookies(ctx.deps, ctx.cookies);
      if (!ctx.user || !ctx.sessionId) return { revoked: false };
      await revokeSession(ctx.deps, ctx.user.id, ctx.sessionId);
      return { revoked: true };
    }),

  sessions: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/auth/sessions', tags, protect: true, summary: 'Signed-in browsers and API clients' } })
    .input(z.void())
    .output(sessionListSchema)
    .query(async ({ ctx }) => ({ sessions: await listSessions(ctx.deps, ctx.user.id, ctx.sessionId) })),

  revokeSession: authedProcedure
    .meta({ openapi: { method: 'DELETE', path: '/auth/sessions/{id}', tags, protect: true, summary: 'Sign out one session' } })
    .input(revokeByIdInputSchema)
    .output(z.object({ revoked: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await revokeSession(ctx.deps, ctx.user.id, input.id);
      if (input.id === ctx.sessionId) clearSessionCookies(ctx.deps, ctx.cookies);
      return { revoked: true as const };
    }),

  logoutEverywhere: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/logout-everywhere',
        tags,
        protect: true,
        summary: 'Sign out every session, and (unless extensionTokens is false) disconnect every extension',
      },
    })
    .input(logoutEverywhereInputSchema)
    .output(logoutEverywhereOutputSchema)
    .mutation(async ({ ctx, input }) => {
      const sessions = await revokeAllSessions(ctx.deps, ctx.user.id);
      const extensionTokens = input.extensionTokens ? await revokeExtensionTokens(ctx.deps, ctx.user.id) : 0;
      clearSessionCookies(ctx.deps, ctx.cookies);
      return { sessions, extensionTokens };
    }),

  me: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/auth/me', tags, protect: true, summary: 'The signed-in user' } })
    .input(z.void())
    .output(publicUserSchema)
    .query(({ ctx }) => getPublicUser(ctx.deps, ctx.user.id)),

  extensionToken: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/extension-token',
        tags,
        protect: true,
        summary: 'Issue a token for the browser extension (the custom-token endpoint); it expires after 90 days unused',
      },
    })
    .input(z.void())
    .output(extensionTokenOutputSchema)
    .mutation(async ({ ctx }) => ({ token: await issueExtensionToken(ctx.deps, ctx.user.id, extensionLabel(ctx.userAgent)) })),

  extensionTokens: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/auth/extension-tokens', tags, protect: true, summary: 'Connected extensions' } })
    .input(z.void())
    .output(extensionTokenListSchema)
    .query(async ({ ctx }) => ({ tokens: await listExtensionTokens(ctx.deps, ctx.user.id) })),

  revokeExtensionToken: authedProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/auth/extension-tokens/{id}', tags, protect: true, summary: 'Disconnect one extension' },
    })
    .input(revokeByIdInputSchema)
    .output(z.object({ revoked: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await revokeExtensionToken(ctx.deps, ctx.user.id, input.id);
      return { revoked: true as const };
    }),

  revokeExtensionTokens: authedProcedure
    .meta({ openapi: { method: 'DELETE', path: '/auth/extension-token', tags, protect: true, summary: 'Disconnect every extension' } })
    .input(z.void())
    .output(z.object({ revoked: z.number().int() }))
    .mutation(async ({ ctx }) => ({ revoked: await revokeExtensionTokens(ctx.deps, ctx.user.id) })),
});

/** The extension is handed its token by a web page: the page's browser names the connection. */
function extensionLabel(userAgent: string): string {
  return `Extension in ${describeUserAgent(userAgent)}`;
}
