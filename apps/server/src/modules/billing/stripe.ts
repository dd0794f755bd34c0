import type Stripe from 'stripe';
import { z } from 'zod';
import { PAID_PLAN_IDS, type PaidPlanId } from '@mbox/shared';
import type { Config } from '../../config.js';

export type { Stripe };

/** The Stripe SDK, loaded on first use: it is large, and most installations never configure payments. */
export async function stripeSdk(): Promise<typeof Stripe> {
  return (await import('stripe')).default;
}

const clients = new WeakMap<Config, Stripe>();

/**
 * The Stripe client of this configuration, or null when payments are not configured. STRIPE_API_BASE
 * (tests, a local mock) points the SDK at another host, port and protocol.
 */
export async function stripeClient(config: Config): Promise<Stripe | null> {
  if (!config.STRIPE_SECRET_KEY) return null;
  let client = clients.get(config);
  if (!client) {
    const base = config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : null;
    const StripeSdk = await stripeSdk();
    client = new StripeSdk(config.STRIPE_SECRET_KEY, {
      // One quick retry: a person waits on checkout, and webhook handling is retried by Stripe itself.
      maxNetworkRetries: 1,
      timeout: 20_000,
      appInfo: { name: 'Mbox' },
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (base.protocol === 'http:' ? 80 : 443),
            protocol: base.protocol === 'http:' ? ('http' as const) : ('https' as const),
          }
        : {}),
    });
    clients.set(config, client);
  }
  return client;
}

/** The Stripe Price id configured for each paid plan (unset: the plan cannot be bought here). */
export function planPrices(config: Config): Record<PaidPlanId, string | undefined> {
  return { pro: config.STRIPE_PRICE_PRO, summarizer: config.STRIPE_PRICE_SUMMARIZER };
}

/** The plan a Stripe price belongs to, through the configured prices. */
export function planOfPrice(config: Config, priceId: string): PaidPlanId | null {
  const prices = planPrices(config);
  return PAID_PLAN_IDS.find((planId) => prices[planId] === priceId) ?? null;
}

const idOf = z.union([z.string(), z.object({ id: z.string() }).transform((object) => object.id)]);

/**
 * The fields of a Stripe subscription the app keeps. Read from event payloads and API answers of any
 * API version: since 2025-03-31 the period end lives on the subscription's items, before it was on the
 * subscription itself.
 */
const subscriptionObjectSchema = z.object({
  id: z.string(),
  customer: idOf,
  status: z.string(),
  cancel_at_period_end: z.boolean().default(false),
  current_period_end: z.number().int().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  items: z
    .object({
      data: z.array(z.object({ current_period_end: z.number().int().nullish(), price: z.object({ id: z.string() }).nullish() })),
    })
    .nullish(),
});

export interface SubscriptionSnapshot {
  externalId: string;
  customerId: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  priceIds: string[];
  metadata: Record<string, string>;
}

export function subscriptionSnapshot(object: unknown): SubscriptionSnapshot {
  const subscription = subscriptionObjectSchema.parse(object);
  const items = subscription.items?.data ?? [];
  const itemEnds = items.map((item) => item.current_period_end).filter((end): end is number => typeof end === 'number');
  const periodEnd = subscription.current_period_end ?? (itemEnds.length ? Math.max(...itemEnds) : null);
  return {
    externalId: subscription.id,
    customerId: subscription.customer,
    status: subscription.status,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    currentPeriodEnd: periodEnd === null ? null : new Date(periodEnd * 1000),
    priceIds: items.flatMap((item) => (item.price ? [item.price.id] : [])),
    metadata: subscription.metadata ?? {},
  };
}

/** The subscription an invoice bills: `subscription` before API 2025-03-31, `parent.subscription_details` since. */
const invoiceObjectSchema = z.object({
  subscription: idOf.nullish(),
  parent: z.object({ subscription_details: z.object({ subscription: idOf.nullish() }).nullish() }).nullish(),
});

export function invoiceSubscriptionId(object: unknown): string | null {
  const invoice = invoiceObjectSchema.parse(object);
  return invoice.subscription ?? invoice.parent?.subscription_details?.subscription ?? null;
}

const checkoutSessionObjectSchema = z.object({
  mode: z.string(),
  subscription: idOf.nullish(),
  customer: idOf.nullish(),
  client_reference_id: z.string().nullish(),
});

export function checkoutSessionFields(object: unknown) {
  const session = checkoutSessionObjectSchema.parse(object);
  return {
    subscriptionId: session.mode === 'subscription' ? (session.subscription ?? null) : null,
    customerId: session.customer ?? null,
    userId: session.client_reference_id ?? null,
  };
}
