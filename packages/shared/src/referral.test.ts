import { describe, expect, it } from 'vitest';
import {
  extendPremiumUntil,
  REFERRAL_PREMIUM_DAYS,
  REFERRER_PREMIUM_MAX_AHEAD_DAYS,
  referralCodeSchema,
  referralLink,
} from './referral.js';

const DAY = 24 * 60 * 60 * 1000;

describe('extendPremiumUntil', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it('gives 30 days from now without a running period', () => {
    expect(REFERRAL_PREMIUM_DAYS).toBe(30);
    expect(extendPremiumUntil(null, now)).toEqual(new Date(now.getTime() + 30 * DAY));
    expect(extendPremiumUntil(new Date(now.getTime() - DAY), now)).toEqual(new Date(now.getTime() + 30 * DAY));
  });
  it('extends a running period from its end, never shortening it', () => {
    const until = new Date(now.getTime() + 100 * DAY);
    expect(extendPremiumUntil(until, now)).toEqual(new Date(until.getTime() + 30 * DAY));
  });
});

describe('referralLink', () => {
  it('points at onboarding with the code', () => {
    expect(referralLink('http://localhost:3000', 'AbC123')).toBe('http://localhost:3000/onboarding?code=AbC123');
    expect(referralLink('https://mbox.example.org/', 'a b')).toBe('https://mbox.example.org/onboarding?code=a%20b');
  });
});

describe('referralCodeSchema', () => {
  it('trims and requires a code', () => {
    expect(referralCodeSchema.parse(' abc ')).toBe('abc');
    expect(referralCodeSchema.safeParse('  ').error?.issues[0]?.message).toBe('A referral code is required');
    expect(referralCodeSchema.safeParse('x'.repeat(65)).success).toBe(false);
  });
});

describe('referrer reward cap', () => {
  const now = new Date('2026-11-22T00:00:00Z');
  const daysAhead = (d: Date) => Math.round((d.getTime() - now.getTime()) / 86_400_000);

  it('stops adding at the cap, and never shortens a longer period', () => {
    let until: Date | null = null;
    for (let i = 0; i < 20; i++) until = extendPremiumUntil(until, now, 30, REFERRER_PREMIUM_MAX_AHEAD_DAYS);
    expect(daysAhead(until!)).toBe(REFERRER_PREMIUM_MAX_AHEAD_DAYS);
    const paidLonger = new Date(now.getTime() + 500 * 86_400_000);
    expect(extendPremiumUntil(paidLonger, now, 30, REFERRER_PREMIUM_MAX_AHEAD_DAYS)).toEqual(paidLonger);
    expect(daysAhead(extendPremiumUntil(null, now, 30, REFERRER_PREMIUM_MAX_AHEAD_DAYS))).toBe(30);
  });
});
