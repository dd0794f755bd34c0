import { z } from 'zod';
import { paidPlanIdSchema } from './plans.js';

/** GET /v1/subscription?planID= (product.md, API): which plan to buy. */
export const subscribeInputSchema = z.strictObject({ planID: paidPlanIdSchema });
export type SubscribeInput = z.infer<typeof subscribeInputSchema>;

/** A hosted Stripe page to open (Checkout, Customer Portal), or a text for the person (product.md, Errors). */
export const hostedPageAnswerSchema = z.union([z.object({ url: z.url() }), z.object({ error: z.string().min(1) })]);
export type HostedPageAnswer = z.infer<typeof hostedPageAnswerSchema>;

/** DELETE /v1/p/subscription (product.md, API): 'Subscription cancelled', or a text for the person (product.md, Errors). */
export const cancelSubscriptionAnswerSchema = z.union([
  z.object({ message: z.string().min(1) }),
  z.object({ error: z.string().min(1) }),
]);
export type CancelSubscriptionAnswer = z.infer<typeof cancelSubscriptionAnswerSchema>;

/** What the Account tab shows about where premium comes from (times in epoch seconds, 0 = none). */
export const billingAccountSchema = z.object({
  /** The newest live paid subscription; null when premium (if any) comes from referrals only. */
  subscription: z
    .object({
      planId: paidPlanIdSchema,
      status: z.string(),
      currentPeriodEnd: z.number().int(),
      /** Cancelled: premium stays until currentPeriodEnd and is not renewed. */
      cancelAtPeriodEnd: z.boolean(),
    })
    .nullable(),
  referralPremiumUntil: z.number().int(),
  /** The user has a Stripe customer, so the Customer Portal (card, invoices) can be opened. */
  canManageBilling: z.boolean(),
  /** This server sells plans (Stripe configured); otherwise subscribing answers that payments are not configured. */
  paymentsEnabled: z.boolean(),
});
export type BillingAccount = z.infer<typeof billingAccountSchema>;
