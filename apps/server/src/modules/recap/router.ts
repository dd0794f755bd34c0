import {
  recapDetailSchema,
  recapIdInputSchema,
  recapListInputSchema,
  recapListSchema,
  unsubscribeInputSchema,
  unsubscribeStateSchema,
} from '@mbox/shared/recap';
import { authedProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import { getRecap, listRecaps, unsubscribe, unsubscribeState } from './service.js';

const tags = ['recaps'];

export const recapRouter = router({
  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/recaps', tags, protect: true, summary: "The user's recap e-mails, newest first (the Outbox)" } })
    .input(recapListInputSchema)
    .output(recapListSchema)
    .query(({ ctx, input }) => listRecaps(ctx.deps, ctx.user.id, input)),

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/recaps/{recapId}', tags, protect: true, summary: 'One recap e-mail with its HTML and text' } })
    .input(recapIdInputSchema)
    .output(recapDetailSchema)
    .query(({ ctx, input }) => getRecap(ctx.deps, ctx.user.id, input.recapId)),

  unsubscribeState: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/unsubscribe', tags, protect: false, summary: 'Public: whose recap e-mails an unsubscribe link turns off, and whether they are on' } })
    .input(unsubscribeInputSchema)
    .output(unsubscribeStateSchema)
    .query(({ ctx, input }) => unsubscribeState(ctx.deps, input.token)),

  unsubscribe: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/unsubscribe', tags, protect: false, summary: "Public: turns recap e-mails off (sendSummary) with a recap's signed token" } })
    .input(unsubscribeInputSchema)
    .output(unsubscribeStateSchema)
    .mutation(({ ctx, input }) => unsubscribe(ctx.deps, input.token)),
});
