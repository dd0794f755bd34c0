import { randomBytes } from 'node:crypto';
import type { Recap as RecapDto, RecapDetail, UnsubscribeState } from '@mbox/shared/recap';
import { recapKindSchema, recapStatusSchema } from '@mbox/shared/recap';
import { AppError } from '../../app-error.js';
import { DecryptionError, openRecapTexts, UNREADABLE_TEXT } from '../../crypto/encryption.js';
import type { AppDeps } from '../../deps.js';
import type { Prisma, Recap } from '../../generated/prisma/client.js';
import { meetingTitle } from './compose.js';
import { verifyUnsubscribeToken } from './unsubscribe-token.js';

/** Origin of the web app in links (e-mails). */
export function publicUrl(deps: AppDeps): string {
  return (deps.config.PUBLIC_URL ?? `http://localhost:${deps.config.PORT}`).replace(/\/+$/, '');
}

/** A Message-ID of our own domain: stable for the recap, so a resend is recognisably the same message. */
function newMessageId(deps: AppDeps): string {
  const host = new URL(publicUrl(deps)).hostname || 'localhost';
  return `recap-${randomBytes(12).toString('hex')}@${host}`;
}

/**
 * Called in the transaction that ends a meeting: creates its recap and enqueues the job, both
 * committing with the end. A meeting that already has a recap gets none again; one still waiting
 * (the meeting reopened before it was sent) is composed afresh from the whole meeting.
 */
export async function queueRecap(deps: AppDeps, tx: Prisma.TransactionClient, meeting: { id: string; userId: string }): Promise<void> {
  const existing = await tx.recap.findUnique({ where: { meetingId: meeting.id }, select: { id: true } });
  if (existing) {
    const { count } = await tx.recap.updateMany({
      where: { id: existing.id, status: { in: ['pending', 'sending'] } },
      data: { status: 'pending', subject: '', html: '', text: '', recipients: [], refused: '', composedAt: null, encrypted: false },
    });
    if (count) await deps.jobs.send('recap-send', { recapId: existing.id }, { tx });
    return;
  }
  const recap = await tx.recap.create({ data: { meetingId: meeting.id, userId: meeting.userId, messageId: newMessageId(deps) } });
  await deps.jobs.send('recap-send', { recapId: recap.id }, { tx });
}

/**
 * The Message-IDs of the user's recaps, locked until the transaction ends: a recap being sent holds its
 * row while it writes the outbox file, so this waits for that send, and a later one finds no row.
 */
export async function lockRecapMessageIds(tx: Prisma.TransactionClient, userId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<{ messageId: string }[]>`SELECT "messageId" FROM "Recap" WHERE "userId" = ${userId} FOR UPDATE`;
  return rows.map((row) => row.messageId);
}

const SKIPPED_REASONS = {
  summary: 'Recap e-mails are off (Settings → General → Send summary)',
  'no-summary': 'The meeting was too short to summarise, and "send when there is no summary" is off',
} as const;

type RecapRow = Recap & { meeting: { title: string; meetCode: string } };

function toRecapDto(row: RecapRow): RecapDto {
  const status = recapStatusSchema.parse(row.status);
  const kind = recapKindSchema.parse(row.kind);
  return {
    id: row.id,
    meetingId: row.meetingId,
    meetingTitle: meetingTitle(row.meeting),
    status,
    kind,
    recipients: row.recipients,
    subject: row.subject,
    error: row.error,
    // Skipped because no address may receive it: the refusals say why.
    skippedReason: status === 'skipped' ? row.refused || SKIPPED_REASONS[kind] : '',
    refused: row.refused,
    attempts: row.attempts,
    createdAt: row.createdAt.getTime(),
    sentAt: row.sentAt?.getTime() ?? null,
  };
}

const meetingRef = { meeting: { select: { title: true, meetCode: true } } } as const;

export async function listRecaps(deps: AppDeps, userId: string, input: { cursor?: string; limit: number }) {
  const rows = await deps.db.recap.findMany({
    where: { userId },
    include: meetingRef,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: input.limit + 1,
    ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, input.limit);
  return {
    recaps: page.map(toRecapDto),
    nextCursor: rows.length > input.limit ? page.at(-1)!.id : null,
    transport: deps.config.SMTP_URL ? ('smtp' as const) : ('outbox' as const),
  };
}

export async function getRecap(deps: AppDeps, userId: string, recapId: string): Promise<RecapDetail> {
  const row = await deps.db.recap.findFirst({ where: { id: recapId, userId }, include: meetingRef });
  if (!row) throw new AppError('NOT_FOUND', 'Recap not found');
  const content = await openRecapTexts(deps.db, deps.secrets.masterKey, row).catch((error: unknown) => {
    if (!(error instanceof DecryptionError)) throw error;
    deps.log.error({ err: error, recapId }, 'recap cannot be decrypted');
    return { html: `<p>${UNREADABLE_TEXT}</p>`, text: UNREADABLE_TEXT };
  });
  return { ...toRecapDto(row), ...content, messageId: row.messageId };
}

/** 'ana@example.com' → 'a**@example.com': enough to recognise, not to harvest from a forwarded link. */
function maskEmail(email: string): string {
  const [name = '', domain = ''] = email.split('@');
  return `${name.slice(0, 1)}${'*'.repeat(Math.max(2, name.length - 1))}@${domain}`;
}

async function unsubscribeUser(deps: AppDeps, token: string): Promise<string> {
  const userId = await verifyUnsubscribeToken(deps.secrets, token);
  if (!userId) {
    throw new AppError('BAD_REQUEST', 'This unsubscribe link is not valid: open it from a recap e-mail again');
  }
  return userId;
}

/** The state an unsubscribe link would change (its page shows it before confirming). */
export async function unsubscribeState(deps: AppDeps, token: string): Promise<UnsubscribeState> {
  const userId = await unsubscribeUser(deps, token);
  const user = await deps.db.user.findUnique({ where: { id: userId }, select: { email: true, sendSummary: true } });
  if (!user) throw new AppError('NOT_FOUND', 'The account of this unsubscribe link no longer exists');
  return { email: maskEmail(user.email), sendSummary: user.sendSummary };
}

/** Turns recap e-mails off for the link's user, without sign-in. Repeating it changes nothing. */
export async function unsubscribe(deps: AppDeps, token: string): Promise<UnsubscribeState> {
  const userId = await unsubscribeUser(deps, token);
  const [user] = await deps.db.user.updateManyAndReturn({
    where: { id: userId },
    data: { sendSummary: false },
    select: { email: true, sendSummary: true },
  });
  if (!user) throw new AppError('NOT_FOUND', 'The account of this unsubscribe link no longer exists');
  deps.log.info({ userId }, 'recap e-mails turned off by an unsubscribe link');
  return { email: maskEmail(user.email), sendSummary: user.sendSummary };
}
