import { deleteAccountInputSchema, deleteAccountOutputSchema } from '@mbox/shared';
import { router, sessionOnlyProcedure } from '../../trpc/trpc.js';
import { clearSessionCookies } from '../auth/cookies.js';
import { deleteAccount } from './service.js';

const tags = ['account'];

export const accountRouter = router({
  // The data export is GET /v1/account/export, a streamed zip (route.ts).
  delete: sessionOnlyProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/account/delete',
        tags,
        protect: true,
        summary:
          'Delete the account for good: body { confirm: <the account e-mail> }. Cancels paid subscriptions at once, removes every meeting, summary, recap (and its outbox file), webhook, session, extension token and personal access token',
      },
    })
    .input(deleteAccountInputSchema)
    .output(deleteAccountOutputSchema)
    .mutation(async ({ ctx, input }) => {
      const deleted = await deleteAccount(ctx.deps, ctx.user, input.confirm);
      clearSessionCookies(ctx.deps, ctx.cookies);
      return deleted;
    }),
});
