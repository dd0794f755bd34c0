import {
  REFERRAL_PREMIUM_DAYS,
  REFERRER_PREMIUM_MAX_AHEAD_DAYS,
  extendPremiumUntil,
  referralLink,
  type ReferralAccept,
  type ReferralLink,
} from '@mbox/shared';
import { AppError } from '../../app-error.js';
import { publicOrigin } from '../../config.js';
import type { AppDeps } from '../../deps.js';
import { Prisma } from '../../generated/prisma/client.js';
import { forgetCredentials } from '../auth/credential-cache.js';
import { refreshPremium } from '../billing/service.js';

export async function getReferralLink(deps: AppDeps, userId: string): Promise<ReferralLink> {
  const { referralCode } = await deps.db.user.findUniqueOrThrow({ where: { id: userId }, select: { referralCode: true } });
  return { link: referralLink(publicOrigin(deps.config), referralCode) };
}

/** How long after the account was created it may accept a referral code: the time of its onboarding. */
export const REFERRAL_ACCEPT_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Key of the transaction-level advisory lock that serialises referral acceptances. */
const REFERRAL_ACCEPT_LOCK = 284_001;

/**
 * Accepts a referral code: the acceptor and the referrer each get REFERRAL_PREMIUM_DAYS of premium,
 * added to their running referral days; premium runs to the later of those and any paid period. A
 * user accepts at most one referral, never their own, only within REFERRAL_ACCEPT_WINDOW_MS of creating
 * the account, and never one that closes a cycle (the referrer was referred by the acceptor, directly or
 * through others); accepting the same code again changes nothing (the onboarding page may retry).
 */
export async function acceptReferral(deps: AppDeps, userId: string, code: string, now = new Date()): Promise<ReferralAccept> {
  const referrer = await deps.db.user.findUnique({ where: { referralCode: code }, select: { id: true } });
  if (!referrer) throw new AppError('NOT_FOUND', `Referral code not found: ${code}`);
  if (referrer.id === userId) {
    throw new AppError('BAD_REQUEST', 'You cannot accept your own referral code');
  }
  try {
    const accepted = await deps.db.$transaction(async (tx) => {
      // Acceptances one at a time: two at once could each close half of a cycle that the other's check
      // does not see yet (A→B beside C→D while B→C and D→A exist). They are rare and rate-limited.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${REFERRAL_ACCEPT_LOCK})`;
      // Both rows locked in a fixed order: concurrent acceptances must each extend the referrer once.
      const ids = [userId, referrer.id].sort();
      await tx.$queryRaw`SELECT 1 FROM "User" WHERE id IN (${ids[0]}, ${ids[1]}) ORDER BY id FOR UPDATE`;
      const existing = await tx.referral.findUnique({ where: { acceptorId: userId }, select: { referrerId: true } });
      if (existing) {
        if (existing.referrerId === referrer.id) return { status: 'already-accepted' as const };
        throw alreadyAccepted();
      }
      const acceptor = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { createdAt: true } });
      if (now.getTime() - acceptor.createdAt.getTime() > REFERRAL_ACCEPT_WINDOW_MS) {
        throw new AppError('FORBIDDEN', 'A referral code can only be accepted within 24 hours of creating the account');
      }
      // A cycle (A accepts B's code, B accepts C's, C accepts A's) farms premium from a ring of
      // throwaway accounts: walk up the referrer's chain of referrers, looking for the acceptor.
      const cycle = await tx.$queryRaw<unknown[]>`
        WITH RECURSIVE chain (id) AS (
          SELECT ${referrer.id}::text
          UNION
          SELECT r."referrerId" FROM "Referral" r JOIN chain ON r."acceptorId" = chain.id
        )
        SELECT 1 FROM chain WHERE id = ${userId} LIMIT 1`;
      if (cycle.length > 0) {
        throw new AppError('BAD_REQUEST', 'You cannot accept the referral code of someone you referred, directly or through others');
      }
      await tx.referral.create({ data: { referrerId: referrer.id, acceptorId: userId } });
      for (const id of ids) {
        // Referral days are kept apart from paid periods: cancelling a paid plan must not take them away.
        const { referralPremiumUntil } = await tx.user.findUniqueOrThrow({ where: { id }, select: { referralPremiumUntil: true } });
        const cap = id === referrer.id ? REFERRER_PREMIUM_MAX_AHEAD_DAYS : undefined;
        const until = extendPremiumUntil(referralPremiumUntil, now, REFERRAL_PREMIUM_DAYS, cap);
        await tx.user.update({ where: { id }, data: { referralPremiumUntil: until } });
        await refreshPremium(tx, id);
      }
      return { status: 'accepted' as const };
    });
    // Both users' premium changed: the signed-in user cached with their credentials carries it.
    if (accepted.status === 'accepted') for (const id of [userId, referrer.id]) forgetCredentials(deps, { userId: id });
    return accepted;
  } catch (error) {
    // The unique acceptor row is the last line of defence against a double acceptance.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw alreadyAccepted();
    throw error;
  }
}

function alreadyAccepted(): AppError {
  return new AppError('CONFLICT', 'You have already accepted a referral');
}
