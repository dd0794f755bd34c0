import { canSummarize, parseEmailList, type Summary } from '@mbox/shared';
import { LlmRequestError } from '../../ai/index.js';
import { AppError } from '../../app-error.js';
import type { Config } from '../../config.js';
import { DecryptionError, ensureDataKey, loadDataKey, openRecapTexts, sealRecapTexts, UNREADABLE_TEXT } from '../../crypto/encryption.js';
import type { AppDeps } from '../../deps.js';
import type { JobContext } from '../../jobs/jobs.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { openItemsFromLastTime } from '../action-items/service.js';
import { generateSummary } from '../summary/generation.js';
import { toSummaryDto } from '../summary/service.js';
import { composeRecap, type NoSummaryReason, type RecapOpenItems } from './compose.js';
import { MailError, mailerFor, toMailError } from './mailer.js';
import { dailyLimitNote, partitionRecipients, remainingEmailsToday, unconfirmedNote } from './recipients.js';
import { publicUrl } from './service.js';
import { signUnsubscribeToken } from './unsubscribe-token.js';

/** Statuses a job still has work for. */
const OPEN_STATUSES = ['pending', 'sending'];

/** Longest a send may hold the recap's row lock: connection, greeting and data timeouts of the SMTP transport, with room. */
const SEND_TRANSACTION_MS = 60_000;

type CrashPoint = NonNullable<Config['MBOX_TEST_CRASH_AT']>;

/**
 * The crash test's kill -9 at a named point of a job's first attempt (NODE_ENV=test only): the retry
 * after the restart runs through, so one server run can finish one recap and crash on the next.
 */
function crashPoint(deps: AppDeps, job: JobContext<'recap-send'>, point: CrashPoint): void {
  if (deps.config.NODE_ENV !== 'test' || deps.config.MBOX_TEST_CRASH_AT !== point || job.retryCount > 0) return;
  deps.log.warn({ point }, 'test crash point reached: killing the process');
  process.kill(process.pid, 'SIGKILL');
}

/** Owner (or the redirect addresses instead), then the extra recipients; each address once. */
export function recapRecipients(user: { email: string; redirectEmails: string; whiteEmailList: string[] }): string[] {
  const redirect = parseEmailList(user.redirectEmails).valid;
  const all = [...(redirect.length ? redirect : [user.email]), ...user.whiteEmailList];
  const seen = new Set<string>();
  return all.filter((address) => {
    const key = address.trim().toLowerCase();
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const userSelect = {
  id: true,
  email: true,
  name: true,
  avatarUrl: true,
  isPremium: true,
  premiumUntil: true,
  timezone: true,
  sendSummary: true,
  sendNoSummary: true,
  redirectEmails: true,
  whiteEmailList: true,
} as const satisfies Prisma.UserSelect;

type RecapUser = Prisma.UserGetPayload<{ select: typeof userSelect }>;

/**
 * The stored default summary when it covers the whole meeting, else a new one (stored, as if asked
 * for in the app) when `generate`, else null.
 */
async function defaultSummary(
  deps: AppDeps,
  user: RecapUser,
  meeting: { id: string; lastLineAt: Date | null },
  generate: boolean,
): Promise<Pick<Summary, 'text' | 'citations'> | null> {
  const stored = await deps.db.summary.findUnique({
    where: { meetingId_promptKey_customPrompt: { meetingId: meeting.id, promptKey: 'summary', customPrompt: '' } },
  });
  if (stored && (!meeting.lastLineAt || stored.updatedAt >= meeting.lastLineAt)) {
    const key = stored.encrypted ? await loadDataKey(deps.db, deps.secrets.masterKey, user.id) : null;
    const dto = toSummaryDto(stored, key);
    if (dto && dto.text !== UNREADABLE_TEXT) return dto;
  }
  if (!generate) return null;
  return generateSummary(deps, { ...user, via: 'session' }, { meetKey: meeting.id, promptKey: 'summary' });
}

/**
 * Attempts of a recap job that try to generate the summary. A later attempt means the earlier ones
 * died while generating (the process was killed or ran out of memory: nothing was composed) or the
 * LLM stayed unavailable; it composes the recap without a summary, so a summary that brings the
 * server down can cost a few restarts, never a crash loop through every retry.
 */
export const SUMMARY_ATTEMPTS = 3;

/** An LLM outage that may pass (rate limit, unavailable, timeout): worth another attempt of the job. */
function isTemporary(error: unknown): boolean {
  const cause = error instanceof AppError ? error.cause : error;
  return cause instanceof LlmRequestError && ['rate_limited', 'unavailable', 'timeout'].includes(cause.kind);
}

/** The summary for the recap, or why there is none. Throws only to have the queue retry a temporary LLM outage. */
async function recapSummary(
  deps: AppDeps,
  job: JobContext<'recap-send'>,
  user: RecapUser,
  meeting: { id: string; lastLineAt: Date | null },
): Promise<Pick<Summary, 'text' | 'citations'> | { error: string }> {
  try {
    const summary = await defaultSummary(deps, user, meeting, job.retryCount < SUMMARY_ATTEMPTS);
    if (summary !== null) return summary;
    deps.log.error({ recapId: job.data.recapId, attempts: job.retryCount }, 'recap summary attempts exhausted; composing without it');
    return { error: `The summary could not be generated: ${SUMMARY_ATTEMPTS} attempts were interrupted or failed` };
  } catch (error) {
    if (isTemporary(error) && job.retryCount < SUMMARY_ATTEMPTS - 1) throw error;
    // The account's daily AI limit is an expected refusal, not a failure of the server.
    const limited = error instanceof AppError && error.code === 'DAILY_LIMIT_REACHED';
    deps.log[limited ? 'info' : 'error']({ err: error, recapId: job.data.recapId }, 'recap summary could not be generated');
    return { error: `The summary could not be generated: ${error instanceof Error ? error.message : String(error)}` };
  }
}

type Composition =
  | { status: 'skipped'; kind: 'summary' | 'no-summary' }
  | { status: 'failed'; kind: 'summary'; error: string }
  | { status: 'sending'; kind: 'summary' | 'no-summary'; recipients: string[]; subject: string; html: string; text: string };

type StoredComposition =
  | Exclude<Composition, { status: 'sending' }>
  | (Omit<Extract<Composition, { status: 'sending' }>, 'status'> & {
      status: 'sending' | 'skipped';
      refused: string;
      encrypted: boolean;
      composedAt: Date;
    });

/**
 * In the transaction that stores the composed recap: keeps the addresses that may receive it (the
 * account's own and confirmed ones, within the daily e-mail budget, which they take from now) and says
 * why the others get nothing; seals the content when the meeting is encrypted. The meeting's row is
 * read under a share lock, so a meeting being encrypted meanwhile never gets a recap stored in clear.
 */
async function finishComposition(
  deps: AppDeps,
  tx: Prisma.TransactionClient,
  recap: { meetingId: string; userId: string },
  composition: Composition,
): Promise<StoredComposition> {
  if (composition.status !== 'sending') return composition;
  // Meeting before user, as encrypting a meeting locks them.
  const [meeting] = await tx.$queryRaw<{ encrypted: boolean }[]>`SELECT encrypted FROM "Meeting" WHERE id = ${recap.meetingId} FOR SHARE`;
  const encrypted = meeting?.encrypted ?? false;
  const remaining = await remainingEmailsToday(deps, tx, recap.userId);
  const user = await tx.user.findUniqueOrThrow({ where: { id: recap.userId }, select: { id: true, email: true } });
  const { allowed, unconfirmed } = await partitionRecipients(tx, user, composition.recipients);
  const recipients = allowed.slice(0, remaining);
  const overLimit = allowed.slice(recipients.length);
  const refused = [unconfirmed.length ? unconfirmedNote(unconfirmed) : '', overLimit.length ? dailyLimitNote(deps, overLimit) : '']
    .filter(Boolean)
    .join('. ');
  const content = encrypted
    ? sealRecapTexts(await ensureDataKey(tx, deps.secrets.masterKey, user.id), recap.meetingId, composition)
    : { html: composition.html, text: composition.text };
  return { ...composition, ...content, recipients, refused, encrypted, composedAt: new Date(), status: recipients.length ? 'sending' : 'skipped' };
}

async function composeFor(deps: AppDeps, job: JobContext<'recap-send'>, recap: { meetingId: string; userId: string }): Promise<Composition> {
  const user = await deps.db.user.findUniqueOrThrow({ where: { id: recap.userId }, select: userSelect });
  // sendSummary is the master switch (the unsubscribe link turns it off): nothing at all when off.
  if (!user.sendSummary) return { status: 'skipped', kind: 'summary' };
  const meeting = await deps.db.meeting.findUniqueOrThrow({ where: { id: recap.meetingId } });
  const speakers = await deps.db.message.findMany({ where: { meetingId: meeting.id }, select: { user: true } });
  const summarisable = canSummarize(speakers);
  if (!summarisable && !user.sendNoSummary) return { status: 'skipped', kind: 'no-summary' };
  let summaryHtml: string | null = null;
  let summaryCitations: Summary['citations'] = [];
  let noSummaryReason: NoSummaryReason = 'too-small';
  if (summarisable) {
    const summary = await recapSummary(deps, job, user, meeting);
    if ('error' in summary) {
      // Without a summary the recap is the "no summary" note when the user wants one, else a visible failure.
      if (!user.sendNoSummary) return { status: 'failed', kind: 'summary', error: summary.error };
      noSummaryReason = 'failed';
    } else {
      summaryHtml = summary.text;
      summaryCitations = summary.citations;
    }
  }
  const base = publicUrl(deps);
  const token = await signUnsubscribeToken(deps.secrets, user.id);
  const lastTime = await openItemsFromLastTime(deps, user.id, meeting.id);
  const fromLastTime: RecapOpenItems | null = lastTime.meeting && {
    meeting: { title: lastTime.meeting.title, startedAt: new Date(lastTime.meeting.startedAt) },
    meetingUrl: `${base}/${encodeURIComponent(lastTime.meeting.id)}`,
    items: lastTime.items,
  };
  const content = composeRecap({
    meeting: { ...meeting, finishedAt: meeting.finishedAt ?? meeting.lastLineAt },
    summaryHtml,
    summaryCitations,
    noSummaryReason,
    timeZone: user.timezone,
    meetingUrl: `${base}/${encodeURIComponent(meeting.id)}`,
    unsubscribeUrl: `${base}/unsubscribe?token=${encodeURIComponent(token)}`,
    settingsUrl: `${base}/settings`,
    fromLastTime,
  });
  return { status: 'sending', kind: summaryHtml === null ? 'no-summary' : 'summary', recipients: recapRecipients(user), ...content };
}

/**
 * The recap job. Exactly-once argument (docs/recaps.md): the composed message is stored before it is
 * sent, so a retry sends the same message with the same Message-ID; the send happens while holding
 * the recap's row lock, and `sent` is recorded in the same transaction that completes the job. A
 * crash before that commit rolls both back and the retry sends again under the same Message-ID.
 */
export async function runRecapJob(deps: AppDeps, job: JobContext<'recap-send'>): Promise<void> {
  const { recapId } = job.data;
  const recap = await deps.db.recap.findUnique({ where: { id: recapId }, include: { meeting: { select: { endedAt: true } } } });
  // Gone with its meeting, already done, or the meeting reopened: its next end queues the recap again.
  if (!recap || !OPEN_STATUSES.includes(recap.status) || !recap.meeting.endedAt) return;

  crashPoint(deps, job, 'before-generate');
  if (!recap.subject) {
    const composition = await composeFor(deps, job, recap);
    const stored = await deps.db.$transaction(async (tx) => {
      const data = await finishComposition(deps, tx, recap, composition);
      const { count } = await tx.recap.updateMany({
        where: { id: recapId, status: { in: OPEN_STATUSES }, subject: '' },
        data: { error: '', ...data },
      });
      if (data.status !== 'sending') await deps.jobs.complete(job.queue, job.id, tx);
      return count && data.status === 'sending';
    });
    if (!stored) return;
    crashPoint(deps, job, 'after-generate');
  }
  await deliver(deps, job);
}

/** The body of an encrypted meeting's recap in the outbox folder: where to read it instead. */
function sealedOutboxBody(deps: AppDeps): { html: string; text: string } {
  const text = `This recap is of an encrypted meeting: its content is stored encrypted and not kept in this file. Read it in the Mbox Outbox: ${publicUrl(deps)}/outbox`;
  return { text, html: `<!doctype html><html lang="en"><body><p>${text}</p></body></html>\n` };
}

async function deliver(deps: AppDeps, job: JobContext<'recap-send'>): Promise<void> {
  const { recapId } = job.data;
  const mailer = mailerFor(deps);
  const retry = await deps.db.$transaction(
    async (tx) => {
      // The row lock makes a concurrent run of the same recap wait here, then find it sent.
      await tx.$queryRaw`SELECT 1 FROM "Recap" WHERE id = ${recapId} FOR UPDATE`;
      const recap = await tx.recap.findUnique({ where: { id: recapId } });
      if (!recap || recap.status !== 'sending' || !recap.subject) {
        await deps.jobs.complete(job.queue, job.id, tx);
        return null;
      }
      const token = await signUnsubscribeToken(deps.secrets, recap.userId);
      const content = await openRecapTexts(tx, deps.secrets.masterKey, recap).catch((error: unknown) => {
        if (error instanceof DecryptionError) return null;
        throw error;
      });
      if (!content) {
        // The master key changed since it was sealed: no retry can open it.
        await tx.recap.update({ where: { id: recapId }, data: { status: 'failed', error: 'The recap cannot be decrypted with this server key' } });
        await deps.jobs.complete(job.queue, job.id, tx);
        return null;
      }
      let rejected: string[];
      try {
        ({ rejected } = await mailer.send({
          messageId: recap.messageId,
          to: recap.recipients,
          subject: recap.subject,
          ...content,
          // The outbox folder is storage at rest too: a recap of an encrypted meeting leaves only its headers there.
          ...(recap.encrypted ? { outboxBody: sealedOutboxBody(deps) } : {}),
          headers: {
            // RFC 8058 one-click: mail programs POST to this URL; the link in the body opens a page.
            'List-Unsubscribe': `<${publicUrl(deps)}/email/unsubscribe?token=${encodeURIComponent(token)}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            'Auto-Submitted': 'auto-generated',
          },
        }));
      } catch (error) {
        const failure = error instanceof MailError ? error : toMailError(error);
        const final = failure.permanent || job.lastAttempt;
        await tx.recap.update({
          where: { id: recapId },
          data: { attempts: { increment: 1 }, error: failure.message, ...(final ? { status: 'failed' } : {}) },
        });
        if (final) {
          await deps.jobs.complete(job.queue, job.id, tx);
          deps.log.warn({ recapId, error: failure.message }, 'recap e-mail failed for good');
          return null;
        }
        return failure;
      }
      crashPoint(deps, job, 'after-smtp');
      await tx.recap.update({
        where: { id: recapId },
        data: {
          status: 'sent',
          sentAt: new Date(),
          attempts: { increment: 1 },
          error: rejected.length ? `Not delivered to ${rejected.join(', ')}: refused by the mail server` : '',
        },
      });
      await deps.jobs.complete(job.queue, job.id, tx);
      deps.log.info({ recapId, transport: mailer.kind, recipients: recap.recipients.length }, 'recap e-mail sent');
      return null;
    },
    { timeout: SEND_TRANSACTION_MS, maxWait: SEND_TRANSACTION_MS },
  );
  // Thrown after the commit that recorded the attempt: the queue retries with backoff.
  if (retry) throw retry;
}
