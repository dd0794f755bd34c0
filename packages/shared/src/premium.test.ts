import { describe, expect, it } from 'vitest';
import { combinePremium, isPremiumActive } from './premium.js';

const day = (n: number) => new Date(Date.UTC(2026, 11, n));

describe('combinePremium', () => {
  it('is not premium without referral days or a paying subscription', () => {
    expect(combinePremium(null, [])).toEqual({ isPremium: false, premiumUntil: null });
    expect(combinePremium(null, [{ status: 'canceled', currentPeriodEnd: day(20) }])).toEqual({ isPremium: false, premiumUntil: null });
  });

  it('takes the later end of referral days and the paid period', () => {
    expect(combinePremium(day(10), [{ status: 'active', currentPeriodEnd: day(20) }]).premiumUntil).toEqual(day(20));
    expect(combinePremium(day(25), [{ status: 'active', currentPeriodEnd: day(20) }]).premiumUntil).toEqual(day(25));
  });

  it('keeps referral days when the paid plan is deleted', () => {
    expect(combinePremium(day(10), [{ status: 'canceled', currentPeriodEnd: day(20) }])).toEqual({ isPremium: true, premiumUntil: day(10) });
  });

  it('counts trialing and past_due (Stripe retrying the card) as paying, unpaid and incomplete as not', () => {
    for (const status of ['trialing', 'past_due']) {
      expect(combinePremium(null, [{ status, currentPeriodEnd: day(20) }]).premiumUntil).toEqual(day(20));
    }
    for (const status of ['unpaid', 'incomplete', 'incomplete_expired', 'paused']) {
      expect(combinePremium(null, [{ status, currentPeriodEnd: day(20) }]).isPremium).toBe(false);
    }
  });

  it('takes the latest of several subscriptions and ignores one without a period', () => {
    const subscriptions = [
      { status: 'active', currentPeriodEnd: day(20) },
      { status: 'active', currentPeriodEnd: day(28) },
      { status: 'active', currentPeriodEnd: null },
    ];
    expect(combinePremium(null, subscriptions).premiumUntil).toEqual(day(28));
  });

  it('gives a state isPremiumActive reads as active until the end, then not', () => {
    const state = combinePremium(day(10), [{ status: 'active', currentPeriodEnd: day(20) }]);
    expect(isPremiumActive(state, day(19))).toBe(true);
    expect(isPremiumActive(state, day(21))).toBe(false);
  });
});
