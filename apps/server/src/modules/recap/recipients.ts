import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseEmailList } from '@mbox/shared';
import type { RecapRecipient as RecipientDto, RecapRecipientList, RecipientConsent, RecipientStatus } from '@mbox/shared/recap';
import { recipientStatusSchema } from '@mbox/shared/recap';
import { AppError } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';
import type { JobContext } from '../../jobs/jobs.js';
import type { Prisma, RecapRecipient } from '../../generated/prisma/client.js';
import type { Secrets } from '../../secrets.js';
import { escapeHtml } from './compose.js';
import { MailError, mailerFor, toMailError } from './mailer.js';
import { publicUrl } from './service.js';

/**
 * Recap addresses other than the account's own (docs/recaps.md, "Recipients"): each must confirm by a
 * signed link before a recap goes to it, and every e-mail an account causes counts against its daily
 * budget (RECAP_EMAILS_PER_DAY), so an account cannot turn the server into a mail relay.
 */

type DbClient = AppDeps['db'] | Prisma.TransactionClient;

const normalise = (address: string) => address.trim().toLowerCase();

/** Every address the settings name (redirectEmails and whiteEmailList), lower-cased, once each. */
export function settingsAddresses(settings: { redirectEmails: string; whiteEmailList: string[] }): string[] {
  const all = [...parseEmailList(settings.redirectEmails).valid, ...settings.whiteEmailList].map(normalise);
  return [...new Set(all)];
}

/** The addresses that need their owner's consent: all but the account's own. */
export function strangerAddresses(ownEmail: string, addresses: string[]): string[] {
  const own = normalise(ownEmail);
  return [...new Set(addresses.map(normalise))].filter((address) => address !== own);
}

// --- Signed links -------------------------------------------------------------------------------

/** Its own purpose in the MAC: no other token of the server is a confirmation link, nor this one another. */
const TOKEN_PURPOSE = 'mbox-recipient-consent';

function mac(secrets: Secrets, payload: string): Buffer {
  return createHmac('sha256', secrets.authSecret).update(`${TOKEN_PURPOSE}:${payload}`).digest();
}

/** `<recipient id>.<expiry, epoch s>.<HMAC-SHA256 with the server secret>`. */
export function signRecipientToken(secrets: Secrets, recipientId: string, expiresAt: Date): string {
  const payload = `${recipientId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${payload}.${mac(secrets, payload).toString('base64url')}`;
}

/** The recipient a token names, and whether it has expired; null when it was not signed by this server. */
export function verifyRecipientToken(secrets: Secrets, token: string, now = new Date()): { recipientId: string; expired: boolean } | null {
  const match = /^([a-z0-9]{1,64})\.(\d{1,12})\.([\w-]{43})$/i.exec(token.trim());
  if (!match) return null;
  const [, recipientId, expiry, signature] = match as unknown as [string, string, string, string];
  const expected = mac(secrets, `${recipientId}.${expiry}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { recipientId, expired: Number(expiry) * 1000 <= now.getTime() };
}

// --- The daily budget ---------------------------------------------------------------------------

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * E-mails the account caused this UTC day: every address of the recaps composed today and every
 * confirmation sent. Call it with the user's row locked, so two sends cannot both take the last one.
 */
async function emailsSentToday(tx: Prisma.TransactionClient, userId: string, now: Date): Promise<number> {
  const since = startOfUtcDay(now);
  const [recaps] = await tx.$queryRaw<{ count: bigint | number | null }[]>`
    SELECT COALESCE(SUM(cardinality("recipients")), 0) AS count FROM "Recap"
    WHERE "userId" = ${userId} AND "composedAt" >= ${since}`;
  const confirmations = await tx.recapRecipient.count({ where: { userId, confirmationSentAt: { gte: since } } });
  return Number(recaps?.count ?? 0) + confirmations;
}

/** How many more e-mails the account may cause today (Infinity without a limit). Locks the user's row. */
export async function remainingEmailsToday(deps: AppDeps, tx: Prisma.TransactionClient, userId: string, now = new Date()): Promise<number> {
  await tx.$queryRaw`SELECT 1 FROM "User" WHERE id = ${userId} FOR UPDATE`;
  const limit = deps.config.RECAP_EMAILS_PER_DAY;
  if (limit === 0) return Infinity;
  return Math.max(0, limit - (await emailsSentToday(tx, userId, now)));
}

export function dailyLimitNote(deps: AppDeps, addresses: string[]): string {
  return `Not sent to ${addresses.join(', ')}: the daily limit of ${deps.config.RECAP_EMAILS_PER_DAY} recap e-mails of this account was reached`;
}

export function unconfirmedNote(addresses: string[]): string {
  return `Not sent to ${addresses.join(', ')}: ${addresses.length > 1 ? 'they have' : 'it has'} not confirmed (yet) to receive these e-mails`;
}

// --- Settings -----------------------------------------------------------------------------------

/** A confirmation sent before this can no longer agree: saving the settings sends a fresh one. */
function linkIssuedBefore(deps: AppDeps, now = new Date()): Date {
  return new Date(now.getTime() - deps.config.RECIPIENT_CONFIRM_HOURS * 3_600_000);
}

/**
 * In the transaction that saves the settings: refuses more than RECAP_RECIPIENTS_MAX addresses,
 * records each new address other than the owner's as pending and queues its confirmation e-mail (also
 * for a pending one whose e-mail could not go out before or whose link expired). Confirmed and declined addresses keep their
 * answer: removing and adding an address again never asks its owner twice.
 */
export async function registerRecipients(
  deps: AppDeps,
  tx: Prisma.TransactionClient,
  user: { id: string; email: string },
  addresses: string[],
): Promise<void> {
  const max = deps.config.RECAP_RECIPIENTS_MAX;
  if (addresses.length > max) {
    throw new AppError('BAD_REQUEST', `At most ${max} recap recipients (redirectEmails and whiteEmailList together); ${addresses.length} were given`);
  }
  const strangers = strangerAddresses(user.email, addresses);
  if (!strangers.length) return;
  await tx.recapRecipient.createMany({ data: strangers.map((email) => ({ userId: user.id, email })), skipDuplicates: true });
  const unsent = await tx.recapRecipient.findMany({
    where: { userId: user.id, email: { in: strangers }, status: 'pending', OR: [{ confirmationSentAt: null }, { confirmationSentAt: { lt: linkIssuedBefore(deps) } }] },
    select: { id: true },
  });
  for (const { id } of unsent) await deps.jobs.send('recipient-confirm', { recipientId: id }, { tx });
}

function toRecipientDto(row: RecapRecipient): RecipientDto {
  return {
    email: row.email,
    status: recipientStatusSchema.parse(row.status),
    confirmationSentAt: row.confirmationSentAt?.getTime() ?? null,
    error: row.error,
  };
}

/** The consent state of the addresses the user's settings name now (not the account's own). */
export async function listRecipients(deps: AppDeps, userId: string): Promise<RecapRecipientList> {
  const user = await deps.db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, redirectEmails: true, whiteEmailList: true } });
  const addresses = strangerAddresses(user.email, settingsAddresses(user));
  const rows = await deps.db.recapRecipient.findMany({ where: { userId, email: { in: addresses } } });
  const byEmail = new Map(rows.map((row) => [row.email, row]));
  return {
    recipients: addresses.map(
      (email) =>
        byEmail.has(email)
          ? toRecipientDto(byEmail.get(email)!)
          : // Named before confirmations existed: the next save of the settings asks its owner.
            { email, status: 'pending', confirmationSentAt: null, error: 'No confirmation e-mail was sent yet: save the settings to send one.' },
    ),
    maxRecipients: deps.config.RECAP_RECIPIENTS_MAX,
    emailsPerDay: deps.config.RECAP_EMAILS_PER_DAY,
  };
}

/** The recipients a recap may go to: the account's own address and confirmed ones; the rest are refused. */
export async function partitionRecipients(
  db: DbClient,
  user: { id: string; email: string },
  recipients: string[],
): Promise<{ allowed: string[]; unconfirmed: string[] }> {
  const strangers = strangerAddresses(user.email, recipients);
  const confirmed = new Set(
    (await db.recapRecipient.findMany({ where: { userId: user.id, email: { in: strangers }, status: 'confirmed' }, select: { email: true } })).map(
      (row) => row.email,
    ),
  );
  const allowed: string[] = [];
  const unconfirmed: string[] = [];
  for (const address of recipients) {
    const key = normalise(address);
    (strangers.includes(key) && !confirmed.has(key) ? unconfirmed : allowed).push(address);
  }
  return { allowed, unconfirmed };
}

// --- The confirmation e-mail --------------------------------------------------------------------

function consentUrl(deps: AppDeps, token: string): string {
  return `${publicUrl(deps)}/recipient?token=${encodeURIComponent(token)}`;
}

/**
 * Fixed text: only the owner's account address is the user's own input, so the e-mail cannot carry a
 * message of their choosing to a stranger.
 */
export function composeConfirmation(input: { ownerEmail: string; email: string; url: string; hours: number }) {
  const validity = input.hours % 24 === 0 ? `${input.hours / 24} day${input.hours === 24 ? '' : 's'}` : `${input.hours} hours`;
  const subject = `Do you want meeting recaps from ${input.ownerEmail}?`;
  const lines = [
    `${input.ownerEmail} uses Mbox, a meeting assistant, and asked for the summaries of their meetings to be e-mailed to ${input.email}.`,
    'You will receive nothing unless you agree. If you agree, each summary of their meetings will be sent to you after the meeting ends, until you or they stop it.',
    `Open this link to agree or to decline (it can agree for ${validity}; declining always works): ${input.url}`,
    'If you do not know this person or do not want these e-mails, decline or ignore this message: you will not be asked again.',
  ];
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:sans-serif;line-height:1.5;color:#111827">
<p>${escapeHtml(lines[0]!)}</p>
<p>${escapeHtml(lines[1]!)}</p>
<p><a href="${escapeHtml(input.url)}">Agree or decline</a> (the link can agree for ${escapeHtml(validity)}; declining always works).</p>
<p style="color:#6b7280">${escapeHtml(lines[3]!)}</p>
</body></html>
`;
  return { subject, html, text: `${lines.join('\n\n')}\n` };
}

/** One per address: a new link replaces the outbox file of the last, and deleting the account finds them. */
function confirmationMessageId(deps: AppDeps, recipientId: string): string {
  const host = new URL(publicUrl(deps)).hostname || 'localhost';
  return `consent-${recipientId}@${host}`;
}

/** The Message-IDs of the account's confirmation e-mails (their outbox files go with the account). */
export async function confirmationMessageIds(deps: AppDeps, tx: Prisma.TransactionClient, userId: string): Promise<string[]> {
  const rows = await tx.recapRecipient.findMany({ where: { userId, confirmationSentAt: { not: null } }, select: { id: true } });
  return rows.map((row) => confirmationMessageId(deps, row.id));
}

/**
 * The recipient-confirm job: e-mails one pending address its link, once, within the account's daily
 * budget. Over budget the address stays pending with the reason shown in Settings; saving the settings
 * another day sends it. A temporary mail failure is retried by the queue.
 */
export async function sendConfirmation(deps: AppDeps, job: JobContext<'recipient-confirm'>): Promise<void> {
  const { recipientId } = job.data;
  const failure = await deps.db.$transaction(
    async (tx) => {
      const row = await tx.recapRecipient.findUnique({ where: { id: recipientId }, include: { user: { select: { email: true } } } });
      const now = new Date();
      if (!row || row.status !== 'pending' || (row.confirmationSentAt && row.confirmationSentAt >= linkIssuedBefore(deps, now))) return null;
      if ((await remainingEmailsToday(deps, tx, row.userId, now)) < 1) {
        const error = `The confirmation e-mail was not sent: the daily limit of ${deps.config.RECAP_EMAILS_PER_DAY} e-mails of this account was reached. Save the settings again tomorrow to send it.`;
        await tx.recapRecipient.update({ where: { id: row.id }, data: { error } });
        return null;
      }
      const expiresAt = new Date(now.getTime() + deps.config.RECIPIENT_CONFIRM_HOURS * 3_600_000);
      const url = consentUrl(deps, signRecipientToken(deps.secrets, row.id, expiresAt));
      const mail = composeConfirmation({ ownerEmail: row.user.email, email: row.email, url, hours: deps.config.RECIPIENT_CONFIRM_HOURS });
      try {
        await mailerFor(deps).send({ messageId: confirmationMessageId(deps, row.id), to: [row.email], ...mail, headers: { 'Auto-Submitted': 'auto-generated' } });
      } catch (error) {
        const mailError = error instanceof MailError ? error : toMailError(error);
        const final = mailError.permanent || job.lastAttempt;
        await tx.recapRecipient.update({ where: { id: row.id }, data: { error: `The confirmation e-mail could not be sent: ${mailError.message}` } });
        return final ? null : mailError;
      }
      await tx.recapRecipient.update({ where: { id: row.id }, data: { confirmationSentAt: now, error: '' } });
      return null;
    },
    { timeout: 60_000, maxWait: 60_000 },
  );
  if (failure) throw failure;
}

// --- The public consent page --------------------------------------------------------------------

async function recipientOfToken(deps: AppDeps, token: string) {
  const verified = verifyRecipientToken(deps.secrets, token);
  if (!verified) {
    throw new AppError('BAD_REQUEST', 'This confirmation link is not valid: open it from the e-mail again');
  }
  const row = await deps.db.recapRecipient.findUnique({ where: { id: verified.recipientId }, include: { user: { select: { email: true } } } });
  if (!row) throw new AppError('NOT_FOUND', 'The account that asked to send you recaps no longer exists');
  return { row, expired: verified.expired };
}

function toConsent(row: RecapRecipient & { user: { email: string } }, expired: boolean): RecipientConsent {
  return { email: row.email, ownerEmail: row.user.email, status: recipientStatusSchema.parse(row.status), expired };
}

/** What a confirmation link's page shows, without sign-in. */
export async function recipientConsent(deps: AppDeps, token: string): Promise<RecipientConsent> {
  const { row, expired } = await recipientOfToken(deps, token);
  return toConsent(row, expired);
}

/**
 * The recipient's answer. Agreeing needs a link that has not expired (and an address that did not
 * decline since: a decline is final until the recipient agrees by a fresh link); declining works with
 * any link this server signed, expired or not, and also stops recaps already agreed to.
 */
export async function answerRecipient(deps: AppDeps, token: string, answer: Exclude<RecipientStatus, 'pending'>): Promise<RecipientConsent> {
  const { row, expired } = await recipientOfToken(deps, token);
  if (answer === 'confirmed' && expired) {
    throw new AppError('BAD_REQUEST', `This confirmation link has expired: ask ${row.user.email} to save their e-mail settings again, which sends a new one`);
  }
  const updated = await deps.db.recapRecipient.update({
    where: { id: row.id },
    data: { status: answer, respondedAt: new Date() },
    include: { user: { select: { email: true } } },
  });
  deps.log.info({ recipientId: row.id, answer }, 'recap recipient answered');
  return toConsent(updated, expired);
}
