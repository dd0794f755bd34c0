import {
  PREMIUM_SUBSCRIPTION_STATUSES,
  combinePremium,
  findPlan,
  paidPlanIdSchema,
  toEpochSeconds,
  type AccountExport,
  type BillingAccount,
  type CancelSubscriptionAnswer,
  type HostedPageAnswer,
  type PaidPlanId,
} from '@mbox/shared';
import { AppError } from '../../app-error.js';
import { publicOrigin, type Config } from '../../config.js';
import type { AppDeps } from '../../deps.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { planPrices, stripeClient, stripeSdk, type Stripe } from './stripe.js';

type Tx = Prisma.TransactionClient;

export const PAYMENTS_NOT_CONFIGURED = 'Payments are not configured on this server: plans cannot be bought here';
export const SUBSCRIPTION_CANCELLED = 'Subscription cancelled';

/** What a person reads when a Stripe call fails; the details go to the log. */
async function stripeFailure(deps: AppDeps, error: unknown, action: string): Promise<{ error: string }> {
  deps.log.error({ err: error }, `stripe: ${action} failed`);
  const Stripe = await stripeSdk();
  if (error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError) {
    return { error: 'The payment service cannot be reached right now: please try again in a few minutes' };
  }
  if (error instanceof Stripe.errors.StripeRateLimitError) {
    return { error: 'The payment service is busy right now: please try again in a minute' };
  }
  return { error: 'Payments are misconfigured on this server: please contact support' };
}

/** The user's subscription that pays for premium now (newest first), if any. */
function payingSubscription(db: AppDeps['db'] | Tx, userId: string) {
  return db.subscription.findFirst({
    where: { userId, status: { in: [...PREMIUM_SUBSCRIPTION_STATUSES] } },
    orderBy: { createdAt: 'desc' },
  });
}

/**
 * The user's Stripe customer, created on first use and reused afterwards: one customer per user, so
 * the Customer Portal shows every invoice. Two first checkouts at once create one customer (same
 * idempotency key) and store it once.
 */
async function customerOf(deps: AppDeps, stripe: Stripe, userId: string): Promise<string> {
  const user = await deps.db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { email: true, name: true, stripeCustomerId: true },
  });
  if (user.stripeCustomerId) return user.stripeCustomerId;
  const customer = await stripe.customers.create(
    { email: user.email, ...(user.name ? { name: user.name } : {}), metadata: { userId } },
    { idempotencyKey: `mbox-customer-${userId}` },
  );
  await deps.db.user.updateMany({ where: { id: userId, stripeCustomerId: null }, data: { stripeCustomerId: customer.id } });
  const stored = await deps.db.user.findUniqueOrThrow({ where: { id: userId }, select: { stripeCustomerId: true } });
  return stored.stripeCustomerId ?? customer.id;
}

/** Why `planId` cannot be bought on this server (shown on its card before anyone clicks), or null. */
export function purchaseRefusal(config: Config, planId: PaidPlanId): string | null {
  if (!config.STRIPE_SECRET_KEY) return PAYMENTS_NOT_CONFIGURED;
  if (!planPrices(config)[planId]) return `The ${findPlan(planId).title} cannot be bought on this server: its price is not configured`;
  return null;
}

/**
 * GET /v1/subscription?planID= (product.md, API): a Stripe Checkout Session for the plan, whose page the web
 * app opens. Refused with a readable `{ error }` when payments are off, the plan has no price here, or
 * the user already pays for a plan (a second subscription would charge twice).
 */
export async function subscribe(deps: AppDeps, userId: string, planId: PaidPlanId): Promise<HostedPageAnswer> {
  const refusal = purchaseRefusal(deps.config, planId);
  if (refusal) return { error: refusal };
  const stripe = (await stripeClient(deps.config))!;
  const price = planPrices(deps.config)[planId]!;

  const current = await payingSubscription(deps.db, userId);
  if (current) {
    const currentPlan = paidPlanIdSchema.safeParse(current.planId);
    const title = currentPlan.success ? findPlan(currentPlan.data).title : 'a paid plan';
    return current.planId === planId
      ? { error: `You are already subscribed to the ${title}` }
      : { error: `You are already subscribed to the ${title}: change plans from Manage billing in your account` };
  }

  const origin = publicOrigin(deps.config);
  try {
    const customer = await customerOf(deps, stripe, userId);
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: userId,
      line_items: [{ price, quantity: 1 }],
      metadata: { userId, planId },
      // Carried onto the subscription, so its own events name the user and plan too.
      subscription_data: { metadata: { userId, planId } },
      success_url: `${origin}/payment-succeeded?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}/payment-failed`,
    });
    if (!session.url) return await stripeFailure(deps, new Error('checkout session without url'), 'checkout');
    return { url: session.url };
  } catch (error) {
    return await stripeFailure(deps, error, 'checkout');
  }
}

/**
 * DELETE /v1/p/subscription (product.md, API): the paying subscription ends at its period's end; premium
 * stays until then. Asking again answers the same message.
 */
export async function cancelSubscription(deps: AppDeps, userId: string): Promise<CancelSubscriptionAnswer> {
  const stripe = await stripeClient(deps.config);
  if (!stripe) return { error: PAYMENTS_NOT_CONFIGURED };
  const subscription = await payingSubscription(deps.db, userId);
  if (!subscription?.externalId) return { error: 'You have no paid subscription to cancel' };
  if (subscription.cancelAtPeriodEnd) return { message: SUBSCRIPTION_CANCELLED };
  try {
    await stripe.subscriptions.update(subscription.externalId, { cancel_at_period_end: true });
  } catch (error) {
    return await stripeFailure(deps, error, 'cancel');
  }
  // Shown at once; the customer.subscription.updated event that follows confirms it.
  await deps.db.subscription.update({ where: { id: subscription.id }, data: { cancelAtPeriodEnd: true } });
  return { message: SUBSCRIPTION_CANCELLED };
}

/** Statuses after which Stripe never charges a subscription again. */
const ENDED_STATUSES = ['canceled', 'incomplete_expired'];

/**
 * Ends every subscription of the user that Stripe could still charge, at once rather than at the period's
 * end (the account is about to be deleted; nothing is refunded). Answers how many were cancelled. Throws
 * an AppError, having changed nothing here, when one cannot be cancelled: payments are not configured
 * any more (PRECONDITION_FAILED), or Stripe refuses or cannot be reached (SERVICE_UNAVAILABLE). A subscription Stripe reports as already
 * cancelled (a second request, a cancellation from Stripe's dashboard) counts as done.
 */
export async function cancelSubscriptionsNow(deps: AppDeps, userId: string): Promise<number> {
  const open = await deps.db.subscription.findMany({
    where: { userId, externalId: { not: null }, status: { notIn: ENDED_STATUSES } },
    select: { externalId: true },
  });
  if (open.length === 0) return 0;
  const stripe = await stripeClient(deps.config);
  if (!stripe) {
    throw new AppError(
      'PRECONDITION_FAILED',
      'Your subscription cannot be cancelled because payments are not configured on this server any more: ask its operator to cancel it, then delete the account',
    );
  }
  const Stripe = await stripeSdk();
  for (const { externalId } of open) {
    const id = externalId!;
    try {
      await stripe.subscriptions.cancel(id, {}, { idempotencyKey: `mbox-delete-account-${id}` });
    } catch (error) {
      const gone = error instanceof Stripe.errors.StripeInvalidRequestError && (await stripe.subscriptions.retrieve(id).catch(() => null))?.status === 'canceled';
      if (gone) continue;
      const { error: reason } = await stripeFailure(deps, error, 'cancel before account deletion');
      throw new AppError('SERVICE_UNAVAILABLE', `Your subscription could not be cancelled, so nothing was deleted. ${reason}`);
    }
  }
  return open.length;
}

/** A Stripe Customer Portal session, where the user changes card, sees invoices or resumes a plan. */
export async function openBillingPortal(deps: AppDeps, userId: string): Promise<HostedPageAnswer> {
  const stripe = await stripeClient(deps.config);
  if (!stripe) return { error: PAYMENTS_NOT_CONFIGURED };
  const { stripeCustomerId } = await deps.db.user.findUniqueOrThrow({ where: { id: userId }, select: { stripeCustomerId: true } });
  if (!stripeCustomerId) return { error: 'You have no billing account yet: subscribe to a plan first' };
  try {
    const session = await stripe.billingPortal.sessions.create({
      customer: stripeCustomerId,
      return_url: `${publicOrigin(deps.config)}/settings?tab=account`,
    });
    return { url: session.url };
  } catch (error) {
    return await stripeFailure(deps, error, 'billing portal');
  }
}

/** Every subscription the user has had, oldest first (the data export). */
export async function subscriptionHistory(deps: AppDeps, userId: string): Promise<AccountExport['subscriptions']> {
  const rows = await deps.db.subscription.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } });
  return rows.map((row) => ({
    planId: row.planId,
    status: row.status,
    currentPeriodEnd: toEpochSeconds(row.currentPeriodEnd),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    createdAt: row.createdAt.getTime(),
  }));
}

/** Where the user's premium comes from, for the Account tab. */
export async function billingAccount(deps: AppDeps, userId: string): Promise<BillingAccount> {
  const user = await deps.db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { referralPremiumUntil: true, stripeCustomerId: true },
  });
  const subscription = await payingSubscription(deps.db, userId);
  const planId = paidPlanIdSchema.safeParse(subscription?.planId);
  const paymentsEnabled = (await stripeClient(deps.config)) !== null;
  return {
    subscription:
      subscription && planId.success
        ? {
            planId: planId.data,
            status: subscription.status,
            currentPeriodEnd: toEpochSeconds(subscription.currentPeriodEnd),
            cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
          }
        : null,
    referralPremiumUntil: toEpochSeconds(user.referralPremiumUntil),
    canManageBilling: paymentsEnabled && user.stripeCustomerId !== null,
    paymentsEnabled,
  };
}

/**
 * Recomputes the user's stored premium from its sources (referral days, paying subscriptions): the
 * later end wins (combinePremium). Called inside the transaction that changed a source, with the
 * user's row locked (lockUser).
 */
export async function refreshPremium(tx: Tx, userId: string): Promise<void> {
  const [user, subscriptions] = await Promise.all([
    tx.user.findUniqueOrThrow({ where: { id: userId }, select: { referralPremiumUntil: true } }),
    tx.subscription.findMany({ where: { userId }, select: { status: true, currentPeriodEnd: true } }),
  ]);
  await tx.user.update({ where: { id: userId }, data: combinePremium(user.referralPremiumUntil, subscriptions) });
}

/**
 * Serialises changes to one user's premium (webhooks, referrals, cancellation) until the transaction ends.
 * False when the user is gone (an account deleted while the caller waited for the lock).
 */
export async function lockUser(tx: Tx, userId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "User" WHERE id = ${userId} FOR UPDATE`;
  return rows.length > 0;
}
