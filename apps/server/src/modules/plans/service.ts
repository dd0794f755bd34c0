import { PAID_PLAN_IDS, PREMIUM_SUBSCRIPTION_STATUSES, buildPlans, isPremiumActive, paidPlanIdSchema, type Plan, type PlanId } from '@mbox/shared';
import type { AppDeps } from '../../deps.js';
import { purchaseRefusal } from '../billing/service.js';

/**
 * The plan in use: with premium active, the plan of the newest paying subscription; premium without
 * one (a referral) counts as the Premium Summarizer Plan, whose features it grants; otherwise Basic.
 */
export async function currentPlanId(
  deps: AppDeps,
  user: { id: string; isPremium: boolean; premiumUntil: Date | null },
): Promise<PlanId> {
  if (!isPremiumActive(user)) return 'basic';
  const subscription = await deps.db.subscription.findFirst({
    where: { userId: user.id, status: { in: [...PREMIUM_SUBSCRIPTION_STATUSES] } },
    orderBy: { createdAt: 'desc' },
    select: { planId: true },
  });
  const planId = paidPlanIdSchema.safeParse(subscription?.planId);
  return planId.success ? planId.data : 'summarizer';
}

export async function listPlans(
  deps: AppDeps,
  user: { id: string; isPremium: boolean; premiumUntil: Date | null },
): Promise<Plan[]> {
  const unavailable: Partial<Record<PlanId, string>> = {};
  for (const planId of PAID_PLAN_IDS) {
    const refusal = purchaseRefusal(deps.config, planId);
    if (refusal) unavailable[planId] = refusal;
  }
  return buildPlans(await currentPlanId(deps, user), { enterpriseContactUrl: deps.config.ENTERPRISE_CONTACT_URL, unavailable });
}
