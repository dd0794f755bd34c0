import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { paidPlanIdSchema } from '@mbox/shared';
import type { AppDeps } from '../../deps.js';
import { errorBody } from '../../http/error-body.js';
import { forgetCredentials } from '../auth/credential-cache.js';
import { Prisma } from '../../generated/prisma/client.js';
import { lockUser, refreshPremium } from './service.js';
import {
  checkoutSessionFields,
  invoiceSubscriptionId,
  planOfPrice,
  stripeClient,
  stripeSdk,
  type Stripe,
  subscriptionSnapshot,
  type SubscriptionSnapshot,
} from './stripe.js';

/** Where Stripe delivers events (docs/payments.md): register this URL in the Stripe dashboard. */
export const STRIPE_WEBHOOK_PATH = '/v1/stripe/webhook';
/** Stripe events are a few kilobytes; anything far larger is not from Stripe. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/** Statuses a subscription never leaves: a late event must not bring it back. */
const FINAL_STATUSES = ['canceled', 'incomplete_expired'];

export type EventOutcome = 'processed' | 'duplicate' | 'ignored';

type Tx = Prisma.TransactionClient;

/**
 * POST /v1/stripe/webhook: Stripe's signed events, read as the raw bytes the signature covers (its own
 * scope, so the app's JSON parser never sees them). A bad or missing signature is a 400 and changes
 * nothing; a failure while applying a verified event is a 500, so Stripe delivers it again.
 */
export async function registerStripeWebhook(
  app: FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>,
  deps: AppDeps,
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post(STRIPE_WEBHOOK_PATH, async (request, reply) => {
      const stripe = await stripeClient(deps.config);
      const secret = deps.config.STRIPE_WEBHOOK_SECRET;
      if (!stripe || !secret) {
        return reply.status(503).send(errorBody(503, 'Payments are not configured on this server (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET)'));
      }
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !signature) {
        return reply.status(400).send(errorBody(400, 'Missing Stripe-Signature header'));
      }
      if (!Buffer.isBuffer(request.body)) return reply.status(400).send(errorBody(400, 'Missing event body'));
      let event: Stripe.Event;
      try {
        event = (await stripeSdk()).webhooks.constructEvent(request.body, signature, secret);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        request.log.warn({ reason }, 'stripe webhook: signature refused');
        return reply.status(400).send(errorBody(400, `Invalid Stripe signature: ${reason}`));
      }
      const outcome = await handleStripeEvent(deps, stripe, event);
      request.log.info({ eventId: event.id, type: event.type, outcome }, 'stripe webhook');
      return { received: true, outcome };
    });
  });
}

/** A subscription Stripe does not know (deleted test data, another account's id): nothing to apply. */
async function retrieveSubscription(stripe: Stripe, id: string): Promise<unknown> {
  try {
    return await stripe.subscriptions.retrieve(id);
  } catch (error) {
    if (error instanceof (await stripeSdk()).errors.StripeInvalidRequestError && error.statusCode === 404) return null;
    throw error;
  }
}

/** The subscription an event is about, as Stripe has it, and who the event names as its user. */
async function subscriptionOfEvent(
  stripe: Stripe,
  event: Stripe.Event,
): Promise<{ snapshot: SubscriptionSnapshot; userHint: string | null } | null> {
  const object: unknown = event.data.object;
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = checkoutSessionFields(object);
      if (!session.subscriptionId) return null;
      const subscription = await retrieveSubscription(stripe, session.subscriptionId);
      return subscription ? { snapshot: subscriptionSnapshot(subscription), userHint: session.userId } : null;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      // The event carries the subscription as it was when the event happened.
      return { snapshot: subscriptionSnapshot(object), userHint: null };
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const subscriptionId = invoiceSubscriptionId(object);
      if (!subscriptionId) return null;
      const subscription = await retrieveSubscription(stripe, subscriptionId);
      return subscription ? { snapshot: subscriptionSnapshot(subscription), userHint: null } : null;
    }
    default:
      return null;
  }
}

/**
 * Applies one verified event, at most once: its id is stored in the same transaction as its effect,
 * so a replay (or a concurrent second delivery) finds it and changes nothing. Events about the same
 * subscription may arrive in any order: one older than the last applied changes nothing, and a
 * canceled subscription stays canceled.
 */
export async function handleStripeEvent(deps: AppDeps, stripe: Stripe, event: Stripe.Event): Promise<EventOutcome> {
  if (await deps.db.stripeEvent.findUnique({ where: { id: event.id }, select: { id: true } })) return 'duplicate';
  // Stripe is asked before the transaction: no row stays locked during a network call.
  const subject = await subscriptionOfEvent(stripe, event);
  try {
    const outcome = await deps.db.$transaction(async (tx) => {
      await tx.stripeEvent.create({ data: { id: event.id, type: event.type } });
      if (!subject) return 'ignored';
      return applySubscription(deps, tx, subject.snapshot, subject.userHint, new Date(event.created * 1000));
    });
    if (outcome === 'processed' && subject) {
      // Premium may have changed: the signed-in user cached with the owner's credentials carries it.
      const owner = await deps.db.user.findUnique({ where: { stripeCustomerId: subject.snapshot.customerId }, select: { id: true } });
      if (owner) forgetCredentials(deps, { userId: owner.id });
    }
    return outcome;
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return 'duplicate';
    throw error;
  }
}

/**
 * The user a subscription belongs to: the owner of its Stripe customer (set when they first opened
 * checkout). Only a user with no customer yet is linked through the event's user id, so an event can
 * never move a subscription to someone else.
 */
async function ownerOf(tx: Tx, snapshot: SubscriptionSnapshot, userHint: string | null): Promise<string | null> {
  const owner = await tx.user.findUnique({ where: { stripeCustomerId: snapshot.customerId }, select: { id: true } });
  if (owner) return owner.id;
  const candidate = userHint ?? snapshot.metadata.userId ?? null;
  if (!candidate) return null;
  const linked = await tx.user.updateMany({
    where: { id: candidate, stripeCustomerId: null },
    data: { stripeCustomerId: snapshot.customerId },
  });
  return linked.count === 1 ? candidate : null;
}

async function applySubscription(
  deps: AppDeps,
  tx: Tx,
  snapshot: SubscriptionSnapshot,
  userHint: string | null,
  eventAt: Date,
): Promise<EventOutcome> {
  const log = deps.log.child({ subscription: snapshot.externalId });
  const userId = await ownerOf(tx, snapshot, userHint);
  if (!userId) {
    log.warn({ customer: snapshot.customerId }, 'stripe webhook: no user for this customer; event ignored');
    return 'ignored';
  }
  if (!(await lockUser(tx, userId))) {
    // Deleted while this event waited for the lock (the deletion cancelled the subscription first).
    log.info({ userId }, 'stripe webhook: the account was deleted; event ignored');
    return 'ignored';
  }
  const existing = await tx.subscription.findUnique({ where: { externalId: snapshot.externalId } });
  if (existing && existing.userId !== userId) {
    log.error({ userId, owner: existing.userId }, 'stripe webhook: subscription of another user; event ignored');
    return 'ignored';
  }
  if (existing && (FINAL_STATUSES.includes(existing.status) || (existing.lastEventAt && eventAt < existing.lastEventAt))) {
    return 'ignored';
  }
  const pricedPlan = snapshot.priceIds.map((price) => planOfPrice(deps.config, price)).find((plan) => plan !== null);
  const planId = pricedPlan ?? paidPlanIdSchema.safeParse(snapshot.metadata.planId).data ?? existing?.planId;
  if (!planId) {
    log.warn({ prices: snapshot.priceIds }, 'stripe webhook: subscription to no configured plan; event ignored');
    return 'ignored';
  }
  const fields = {
    planId,
    status: snapshot.status,
    currentPeriodEnd: snapshot.currentPeriodEnd,
    cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
    lastEventAt: eventAt,
  };
  if (existing) await tx.subscription.update({ where: { id: existing.id }, data: fields });
  else await tx.subscription.create({ data: { ...fields, userId, provider: 'stripe', externalId: snapshot.externalId } });
  await refreshPremium(tx, userId);
  return 'processed';
}
