import { z } from 'zod';
import { referralAcceptSchema, referralCodeSchema, referralLinkSchema } from '@mbox/shared';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { acceptReferral, getReferralLink } from './service.js';

const tags = ['referral'];

export const referralRouter = router({
  link: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/referral', tags, protect: true, summary: "The user's referral link" } })
    .input(z.void())
    .output(referralLinkSchema)
    .query(({ ctx }) => getReferralLink(ctx.deps, ctx.user.id)),

  // A mutation behind GET: the documented call is GET /v1/referral/{code}, and it grants premium.
  accept: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/referral/{code}', tags, protect: true, summary: 'Accept a referral code: 30 days of premium' },
    })
    .input(z.strictObject({ code: referralCodeSchema }))
    .output(referralAcceptSchema)
    .mutation(({ ctx, input }) => acceptReferral(ctx.deps, ctx.user.id, input.code)),
});
