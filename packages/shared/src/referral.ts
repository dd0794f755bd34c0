import { z } from 'zod';

/** Premium days an accepted referral adds, to the acceptor and to the referrer alike (docs/referrals.md). */
export const REFERRAL_PREMIUM_DAYS = 30;
/**
 * A referrer's rewards stop adding once their premium reaches this far ahead: otherwise a handful of
 * throwaway accounts would buy unlimited premium. Acceptors get one reward only, so they need no cap.
 */
export const REFERRER_PREMIUM_MAX_AHEAD_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

export const referralCodeSchema = z
  .string()
  .trim()
  .min(1, { message: 'A referral code is required' })
  .max(64, { message: 'Referral code is too long' });

export const referralLinkSchema = z.object({ link: z.string() });
export type ReferralLink = z.infer<typeof referralLinkSchema>;

/** accepted: premium granted now; already-accepted: this same code was accepted before (nothing changes). */
export const referralAcceptSchema = z.object({ status: z.enum(['accepted', 'already-accepted']) });
export type ReferralAccept = z.infer<typeof referralAcceptSchema>;

/** The onboarding link that carries a referral code (product.md, States: a code query parameter). */
export function referralLink(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/onboarding?code=${encodeURIComponent(code)}`;
}

/**
 * The end of a premium period extended by `days`: counted from the current end when it lies in the
 * future, otherwise from now, so an extension never shortens what the user already has. With
 * `maxAheadDays` the extension stops at that many days from now (a longer current period is kept).
 */
export function extendPremiumUntil(
  current: Date | null,
  now: Date,
  days: number = REFERRAL_PREMIUM_DAYS,
  maxAheadDays?: number,
): Date {
  const from = current && current.getTime() > now.getTime() ? current.getTime() : now.getTime();
  let until = from + days * DAY_MS;
  if (maxAheadDays !== undefined) until = Math.min(until, now.getTime() + maxAheadDays * DAY_MS);
  return new Date(Math.max(until, current?.getTime() ?? 0));
}
