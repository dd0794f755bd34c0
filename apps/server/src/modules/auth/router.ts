import { z } from 'zod';
import {
  authConfigSchema,
  extensionTokenOutputSchema,
  loginInputSchema,
  loginOutputSchema,
  publicUserSchema,
} from '@mbox/shared';
import { authedProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import { authConfig, getPublicUser, issueExtensionToken, loginLocal, revokeExtensionTokens } from './service.js';

const tags = ['auth'];

export const authRouter = router({
  config: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/auth/config', tags, protect: false, summary: 'Sign-in mode and client config' } })
    .input(z.void())
    .output(authConfigSchema)
    .query(({ ctx }) => authConfig(ctx.deps)),

  login: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/login', tags, protect: false, summary: 'Local-mode sign-in' } })
    .input(loginInputSchema)
    .output(loginOutputSchema)
    .mutation(({ ctx, input }) => loginLocal(ctx.deps, input)),

  me: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/auth/me', tags, protect: true } })
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
        summary: 'Issue a revocable token for the browser extension (the custom-token endpoint)',
      },
    })
    .input(z.void())
    .output(extensionTokenOutputSchema)
    .mutation(async ({ ctx }) => ({ token: await issueExtensionToken(ctx.deps, ctx.user.id, 'extension') })),

  revokeExtensionTokens: authedProcedure
    .meta({ openapi: { method: 'DELETE', path: '/auth/extension-token', tags, protect: true } })
    .input(z.void())
    .output(z.object({ revoked: z.number().int() }))
    .mutation(async ({ ctx }) => ({ revoked: await revokeExtensionTokens(ctx.deps, ctx.user.id) })),
});
