import { z } from 'zod';
import { personalTokenCreatedSchema, personalTokenCreateInputSchema, personalTokenListSchema, revokeByIdInputSchema } from '@mbox/shared';
import { router, sessionOnlyProcedure } from '../../trpc/trpc.js';
import { issuePersonalToken, listPersonalTokens, revokePersonalToken } from './service.js';

const tags = ['access-tokens'];

/** Settings › Access tokens. A signed-in session manages them; a personal access token cannot. */
export const accessTokensRouter = router({
  list: sessionOnlyProcedure
    .meta({ openapi: { method: 'GET', path: '/access-tokens', tags, protect: true, summary: 'Personal access tokens that still work, newest first' } })
    .input(z.void())
    .output(personalTokenListSchema)
    .query(async ({ ctx }) => ({ tokens: await listPersonalTokens(ctx.deps, ctx.user.id) })),

  create: sessionOnlyProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/access-tokens',
        tags,
        protect: true,
        summary: 'Create a named personal access token of scope read or write; the token is in this answer only',
      },
    })
    .input(personalTokenCreateInputSchema)
    .output(personalTokenCreatedSchema)
    .mutation(({ ctx, input }) => issuePersonalToken(ctx.deps, ctx.user.id, input)),

  revoke: sessionOnlyProcedure
    .meta({ openapi: { method: 'DELETE', path: '/access-tokens/{id}', tags, protect: true, summary: 'Revoke a personal access token' } })
    .input(revokeByIdInputSchema)
    .output(z.object({ revoked: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await revokePersonalToken(ctx.deps, ctx.user.id, input.id);
      return { revoked: true as const };
    }),
});
