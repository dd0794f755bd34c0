/** Epoch seconds of a premium end date as the API exposes it (product.md, Data: premiumUntil, 0 when none). */
export function toEpochSeconds(date: Date | null | undefined): number {
  return date ? Math.floor(date.getTime() / 1000) : 0;
}

/** Premium is active only if isPremium is set and premiumUntil lies in the future (product.md, States). */
export function isPremiumActive(
  user: { isPremium: boolean; premiumUntil: number | Date | null },
  now: Date = new Date(),
): boolean {
  if (!user.isPremium || user.premiumUntil === null) return false;
  const untilMs = user.premiumUntil instanceof Date ? user.premiumUntil.getTime() : user.premiumUntil * 1000;
  return untilMs > now.getTime();
}

/** Stripe subscription statuses that grant paid premium until the current period's end (past_due: Stripe is still retrying the card). */
export const PREMIUM_SUBSCRIPTION_STATUSES: readonly string[] = ['active', 'trialing', 'past_due'];

/** One source of premium: referral days, or a paid subscription with its status. */
export interface PaidPeriod {
  status: string;
  currentPeriodEnd: Date | null;
}

/**
 * The stored premium state from its two sources: referral days and paid subscriptions. The later end
 * wins, so cancelling or deleting a paid plan never takes referral days away, and referral days never
 * shorten a paid period. A subscription outside PREMIUM_SUBSCRIPTION_STATUSES (canceled, unpaid,
 * incomplete) grants nothing, whatever its period end says.
 */
export function combinePremium(
  referralPremiumUntil: Date | null,
  subscriptions: readonly PaidPeriod[],
): { isPremium: boolean; premiumUntil: Date | null } {
  let until = referralPremiumUntil?.getTime() ?? null;
  for (const subscription of subscriptions) {
    if (!PREMIUM_SUBSCRIPTION_STATUSES.includes(subscription.status) || !subscription.currentPeriodEnd) continue;
    until = Math.max(until ?? 0, subscription.currentPeriodEnd.getTime());
  }
  return until === null ? { isPremium: false, premiumUntil: null } : { isPremium: true, premiumUntil: new Date(until) };
}
