import { deleteConfirmationMatches, type AccountExport, type DeleteAccountOutput } from '@mbox/shared';
import { AppError } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';
import type { AuthUser } from '../auth/service.js';
import { forgetCredentials } from '../auth/credential-cache.js';
import { cancelSubscriptionsNow, subscriptionHistory } from '../billing/service.js';
import { removeOutboxFiles } from '../recap/mailer.js';
import { confirmationMessageIds } from '../recap/recipients.js';
import { lockRecapMessageIds } from '../recap/service.js';
import { getSettings } from '../settings/service.js';
import { listWebhooks } from '../webhooks/service.js';

/** Longest the deletion's transaction may take: every row of a large account goes in it. */
const DELETE_TRANSACTION_MS = 5 * 60_000;

/** One meeting of the export, in the order the zip lists them (oldest first). */
export interface ExportedMeetingRef {
  id: string;
  title: string;
  startedAt: Date;
}

/** The user's meetings to export: ids only, each meeting is read when its turn in the zip comes. */
export async function meetingsToExport(deps: AppDeps, userId: string): Promise<ExportedMeetingRef[]> {
  return deps.db.meeting.findMany({
    where: { userId },
    select: { id: true, title: true, startedAt: true },
    orderBy: [{ startedAt: 'asc' }, { id: 'asc' }],
  });
}

/** `account.json` of the export: the profile, the settings as the app shows them, plans and webhooks. */
export async function accountRecord(deps: AppDeps, userId: string, meetings: number): Promise<AccountExport> {
  const [user, settings, subscriptions, webhooks] = await Promise.all([
    deps.db.user.findUniqueOrThrow({
      where: { id: userId },
      select: { id: true, email: true, name: true, avatarUrl: true, createdAt: true, referralCode: true },
    }),
    getSettings(deps, userId),
    subscriptionHistory(deps, userId),
    listWebhooks(deps, userId),
  ]);
  return {
    exportedAt: Date.now(),
    user: { ...user, createdAt: user.createdAt.getTime() },
    settings,
    subscriptions,
    webhooks: webhooks.map(({ url, events, createdAt }) => ({ url, events, createdAt })),
    meetings,
  };
}

/**
 * Deletes the account for good (docs/account-and-plans.md). In order:
 * 1. the typed confirmation must be the account's e-mail address;
 * 2. every subscription Stripe could still charge is cancelled at once; if one cannot be, nothing is
 *    deleted (a deleted account must not go on paying);
 * 3. one transaction removes every row of the account: the user row with everything that hangs off it
 *    (meetings, lines, capture gaps, summaries with their encrypted texts and the wrapped data key,
 *    recaps and recipients' answers, webhooks and their deliveries, subscriptions, referrals, web sessions, extension tokens)
 *    and its daily usage counters. It locks the user row first, so a second request waits, then finds
 *    nothing to delete; and it locks the recaps, so a recap being sent finishes its outbox file first
 *    and one sent later finds no row;
 * 4. after the commit, every cached credential of the account is forgotten on every instance, and the
 *    outbox files of its recaps and recipient confirmations are removed.
 * The same e-mail address signs up again as a new, empty account.
 */
export async function deleteAccount(deps: AppDeps, user: AuthUser, confirm: string): Promise<DeleteAccountOutput> {
  if (!deleteConfirmationMatches(confirm, user.email)) {
    throw new AppError('BAD_REQUEST', `Invalid input: confirm: type the e-mail address of this account (${user.email}) to delete it`);
  }
  const subscriptionsCancelled = await cancelSubscriptionsNow(deps, user.id);

  const messageIds = await deps.db.$transaction(
    async (tx) => {
      const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "User" WHERE id = ${user.id} FOR UPDATE`;
      // Deleted by a request that came first: nothing is left to remove.
      if (locked.length === 0) return [];
      const recaps = await lockRecapMessageIds(tx, user.id);
      // Sent while holding the user's row lock, so none is being written now.
      const confirmations = await confirmationMessageIds(deps, tx, user.id);
      await tx.dailyUsage.deleteMany({ where: { subject: user.id } });
      await tx.user.delete({ where: { id: user.id } });
      return [...recaps, ...confirmations];
    },
    { timeout: DELETE_TRANSACTION_MS, maxWait: DELETE_TRANSACTION_MS },
  );
  forgetCredentials(deps, { userId: user.id });
  const outboxFilesRemoved = await removeOutboxFiles(deps.config, messageIds);
  deps.log.info({ userId: user.id, subscriptionsCancelled, outboxFilesRemoved }, 'account deleted');
  return { deleted: true, subscriptionsCancelled, outboxFilesRemoved };
}
