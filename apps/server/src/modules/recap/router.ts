import { z } from 'zod';
import {
  recapDetailSchema,
  recapRecipientListSchema,
  recipientConsentSchema,
  recipientTokenInputSchema,
  recapIdInputSchema,
  recapListInputSchema,
  recapListSchema,
  unsubscribeInputSchema,
  unsubscribeStateSchema,
} from '@mbox/shared/recap';
import { authedProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import { answerRecipient, listRecipients, recipientConsent } from './recipients.js';
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

  recipients: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/recap-recipients',
        tags,
        protect: true,
        summary: "Whether each recap address of the settings other than the account's own has confirmed (pending, confirmed, declined)",
      },
    })
    .input(z.void())
    .output(recapRecipientListSchema)
    .query(({ ctx }) => listRecipients(ctx.deps, ctx.user.id)),

  recipientConsent: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/recap-recipients/consent', tags, protect: false, summary: 'Public: who asked to send recaps to the address of a confirmation link, and its answer so far' } })
    .input(recipientTokenInputSchema)
    .output(recipientConsentSchema)
    .query(({ ctx, input }) => recipientConsent(ctx.deps, input.token)),

  confirmRecipient: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/recap-recipients/confirm', tags, protect: false, summary: "Public: the recipient agrees to receive the account's recaps (link not expired)" } })
    .input(recipientTokenInputSchema)
    .output(recipientConsentSchema)
    .mutation(({ ctx, input }) => answerRecipient(ctx.deps, input.token, 'confirmed')),

  declineRecipient: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/recap-recipients/decline', tags, protect: false, summary: "Public: the recipient declines or stops the account's recaps (any link of theirs, even expired)" } })
    .input(recipientTokenInputSchema)
    .output(recipientConsentSchema)
    .mutation(({ ctx, input }) => answerRecipient(ctx.deps, input.token, 'declined')),
});
