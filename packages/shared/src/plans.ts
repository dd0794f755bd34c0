import { z } from 'zod';

export const PLAN_IDS = ['basic', 'pro', 'summarizer', 'enterprise'] as const;
export const planIdSchema = z.enum(PLAN_IDS);
export type PlanId = z.infer<typeof planIdSchema>;

/** Plans bought through the hosted payment page. */
export const PAID_PLAN_IDS = ['pro', 'summarizer'] as const satisfies readonly PlanId[];
export const paidPlanIdSchema = z.enum(PAID_PLAN_IDS, {
  error: () => `Unknown plan: expected one of ${PAID_PLAN_IDS.join(', ')}`,
});
export type PaidPlanId = z.infer<typeof paidPlanIdSchema>;

export const planFeatureSchema = z.object({
  title: z.string(),
  included: z.boolean(),
  /** What the feature is on this product, when its name alone would promise more (encryption). */
  detail: z.string().optional(),
});
export type PlanFeature = z.infer<typeof planFeatureSchema>;

export const planSchema = z.object({
  planId: planIdSchema,
  title: z.string(),
  /** Display price: 'Free', '$7.99', 'Custom'. */
  price: z.string(),
  /** Price in cents per interval; null when free or negotiated. */
  amountCents: z.number().int().nullable(),
  interval: z.enum(['month']).nullable(),
  current: z.boolean(),
  features: z.array(planFeatureSchema),
  actionText: z.string(),
  /** External page the plan's button opens instead of subscribing (Enterprise). */
  contactUrl: z.string().nullable(),
  /** Why this paid plan cannot be bought on this server (no payments set up, no price); null when it can. */
  unavailable: z.string().nullable(),
});
export type Plan = z.infer<typeof planSchema>;
export const plansSchema = z.array(planSchema);

/** The product's name for message encryption, kept on the plan cards with what it really is. */
export const ENCRYPTION_FEATURE = 'End-to-end encryption';
/** Messages are sealed at rest by the server that stores them (README: not end to end). */
export const ENCRYPTION_DETAIL = 'Your meeting texts encrypted at rest, on your server';

const details: Record<string, string> = { [ENCRYPTION_FEATURE]: ENCRYPTION_DETAIL };
const feature = (title: string, included: boolean): PlanFeature =>
  details[title] ? { title, included, detail: details[title] } : { title, included };
const included = (title: string): PlanFeature => feature(title, true);
const excluded = (title: string): PlanFeature => feature(title, false);

/** The premium features every paid plan brings to the meeting assistant (product.md, Limits). */
export const PREMIUM_DEFAULT_FEATURES: readonly string[] = [
  'Unlimited AI summaries per meeting',
  'Advanced transcription analysis',
  'Priority support',
  ENCRYPTION_FEATURE,
];

/** The free plan's text on the public pricing page (product.md, Limits). */
export const PUBLIC_FREE_PLAN_FEATURES: readonly string[] = [
  'Up to 10 summaries per day',
  'Basic AI model',
  '1,000 words per summary',
];

const PLAN_CARDS: readonly Omit<Plan, 'current' | 'unavailable'>[] = [
  {
    planId: 'basic',
    title: 'Basic Plan',
    price: 'Free',
    amountCents: null,
    interval: null,
    // product.md, Data: what the fallback plan includes and excludes.
    features: [
      included('Basic AI summaries'),
      included('Real-time transcription with speaker detection'),
      excluded('AI transcription improvements'),
      excluded('Advanced summaries'),
      excluded('Advanced AI model'),
      excluded(ENCRYPTION_FEATURE),
      excluded('Priority support'),
    ],
    actionText: 'Free forever',
    contactUrl: null,
  },
  {
    planId: 'pro',
    title: 'All in One Pro Plan',
    price: '$7.99',
    amountCents: 799,
    interval: 'month',
    features: [
      included('Unlimited daily summaries'),
      included('Priority processing'),
      included('Advanced AI model'),
      included('Includes meeting assistant premium features'),
      ...PREMIUM_DEFAULT_FEATURES.map(included),
    ],
    actionText: 'Get Premium',
    contactUrl: null,
  },
  {
    planId: 'summarizer',
    title: 'Premium Summarizer Plan',
    price: '$3.99',
    amountCents: 399,
    interval: 'month',
    features: PREMIUM_DEFAULT_FEATURES.map(included),
    actionText: 'Get Premium',
    contactUrl: null,
  },
  {
    planId: 'enterprise',
    title: 'Enterprise Plan',
    price: 'Custom',
    amountCents: null,
    interval: null,
    features: PREMIUM_DEFAULT_FEATURES.map(included),
    actionText: 'Contact us',
    // The deployment's contact page (server config ENTERPRISE_CONTACT_URL), filled in by buildPlans.
    contactUrl: null,
  },
];

export const CURRENT_PLAN_ACTION_TEXT = 'In use';

/**
 * The plan cards with the given plan flagged current ('In use'); the Basic plan is the fallback.
 * The Enterprise card opens `enterpriseContactUrl` (product.md, States: an external contact form) and is left
 * out when the deployment has none: a card whose button leads nowhere sells nothing. `unavailable`
 * says why a paid plan cannot be bought on this server.
 */
export function buildPlans(
  currentPlanId: PlanId = 'basic',
  options: { enterpriseContactUrl?: string | null; unavailable?: Partial<Record<PlanId, string>> } = {},
): Plan[] {
  const enterpriseContactUrl = options.enterpriseContactUrl ?? null;
  return PLAN_CARDS.filter((card) => card.planId !== 'enterprise' || enterpriseContactUrl).map((card) => ({
    ...card,
    features: card.features.map((feature) => ({ ...feature })),
    current: card.planId === currentPlanId,
    actionText: card.planId === currentPlanId ? CURRENT_PLAN_ACTION_TEXT : card.actionText,
    contactUrl: card.planId === 'enterprise' ? enterpriseContactUrl : card.contactUrl,
    unavailable: options.unavailable?.[card.planId] ?? null,
  }));
}

export function findPlan(planId: Exclude<PlanId, 'enterprise'>): Plan {
  return buildPlans().find((plan) => plan.planId === planId)!;
}
