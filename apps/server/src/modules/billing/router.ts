import { z } from 'zod';
import { billingAccountSchema, cancelSubscriptionAnswerSchema, hostedPageAnswerSchema, subscribeInputSchema } from '@mbox/shared';
import { authedProcedure, premiumProcedure, router } from '../../trpc/trpc.js';
import { billingAccount, cancelSubscription, openBillingPortal, subscribe } from './service.js';

const tags = ['billing'];

export const billingRouter = router({
  // A mutation behind GET: the documented call is GET /v1/subscription?planID=, and it creates a Checkout Session.
  subscribe: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/subscription',
        tags,
        protect: true,
        summary: "A Stripe Checkout page for the plan: { url }, or { error } with a text for the person",
      },
    })
    .input(subscribeInputSchema)
    .output(hostedPageAnswerSchema)
    .mutation(({ ctx, input }) => subscribe(ctx.deps, ctx.user.id, input.planID)),

  // A premium call like every /v1/p/ path (product.md, Roles): a paying subscriber is premium until the period
  // ends, a past_due one too while Stripe retries the card.
  cancel: premiumProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/p/subscription',
        tags,
        protect: true,
        summary: "Cancel the paid plan at its period's end: { message: 'Subscription cancelled' } or { error }",
      },
    })
    .input(z.void())
    .output(cancelSubscriptionAnswerSchema)
    .mutation(({ ctx }) => cancelSubscription(ctx.deps, ctx.user.id)),

  // A mutation behind GET: each call opens a new Customer Portal session.
  portal: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/billing/portal',
        tags,
        protect: true,
        summary: 'A Stripe Customer Portal page (card, invoices): { url } or { error }',
      },
    })
    .input(z.void())
    .output(hostedPageAnswerSchema)
    .mutation(({ ctx }) => openBillingPortal(ctx.deps, ctx.user.id)),

  account: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/billing/account',
        tags,
        protect: true,
        summary: 'Where premium comes from: the paying subscription, referral days, whether billing can be managed',
      },
    })
    .input(z.void())
    .output(billingAccountSchema)
    .query(({ ctx }) => billingAccount(ctx.deps, ctx.user.id)),
});
