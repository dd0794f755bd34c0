import type { Mark, Message as MessageDto } from '@mbox/shared';
import { AppError } from '../../app-error.js';
import {
  UNREADABLE_TEXT,
  encryptText,
  ensureDataKey,
  loadDataKey,
  messageContext,
  openMessages,
  sealMessageTexts,
  sealRecapTexts,
  sealSummaryTexts,
} from '../../crypto/encryption.js';
import type { AppDeps } from '../../deps.js';
import { MAX_EVENT_LINES_CHARS } from '../../events.js';
import type { Message, Prisma } from '../../generated/prisma/client.js';
import { estimateTokens, meterGeneration, modelTier, serverEngine } from '../ai-usage/service.js';
import type { AuthUser } from '../auth/service.js';
import { toMessageDto } from '../meeting/rows.js';
import { meetingNotFound } from '../meeting/service.js';
import { removeOutboxFiles } from '../recap/mailer.js';
import { callAi } from '../summary/ai-errors.js';

function messageNotFound(): AppError {
  return new AppError('NOT_FOUND', 'Message not found');
}

/** The user's message, or NOT_FOUND — also for another user's message, so its existence never leaks. */
async function findOwnMessage(db: AppDeps['db'] | Prisma.TransactionClient, userId: string, messageId: string) {
  const message = await db.message.findFirst({ where: { id: messageId, meeting: { userId } } });
  if (!message) throw messageNotFound();
  return message;
}

async function readMessage(deps: AppDeps, userId: string, messageId: string): Promise<MessageDto> {
  const [message] = await openMessages(deps, userId, [await findOwnMessage(deps.db, userId, messageId)]);
  return toMessageDto(message!);
}

/**
 * Tells the meeting's live subscribers about changed lines, carrying the rows as stored (an encrypted
 * line's text stays sealed: events may travel through PostgreSQL or Redis; subscribers open it), in
 * transcript order. A change whose texts exceed MAX_EVENT_LINES_CHARS names its lines instead.
 */
export function announceLines(deps: AppDeps, userId: string, meetingId: string, rows: Message[]): void {
  if (!rows.length) return;
  const lines = rows.map(toMessageDto).sort((a, b) => a.spokenAt - b.spokenAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let chars = 0;
  for (const line of lines) chars += line.text.length + (line.aiFixed?.length ?? 0) + line.comment.length;
  deps.events.emit(
    'meeting.lines',
    chars <= MAX_EVENT_LINES_CHARS ? { userId, meetingId, lines } : { userId, meetingId, messageIds: lines.map((l) => l.key) },
  );
}

/** The message after a change: announced to live subscribers as stored, answered opened. */
async function announceAndRead(deps: AppDeps, userId: string, messageId: string): Promise<MessageDto> {
  const stored = await findOwnMessage(deps.db, userId, messageId);
  announceLines(deps, userId, stored.meetingId, [stored]);
  const [message] = await openMessages(deps, userId, [stored]);
  return toMessageDto(message!);
}

/** Stores the given set of marks (the client toggles); repeats are stored once. */
export async function markMessage(deps: AppDeps, userId: string, messageId: string, marks: Mark[]): Promise<MessageDto> {
  await findOwnMessage(deps.db, userId, messageId);
  await deps.db.message.updateMany({ where: { id: messageId, meeting: { userId } }, data: { marks: [...new Set(marks)] } });
  return announceAndRead(deps, userId, messageId);
}

/** Sets the comment of a message; marks stay as they are (the client adds or drops 'commented'). */
export async function commentMessage(
  deps: AppDeps,
  userId: string,
  messageId: string,
  comment: string,
): Promise<MessageDto> {
  await findOwnMessage(deps.db, userId, messageId);
  await deps.db.message.updateMany({ where: { id: messageId, meeting: { userId } }, data: { comment: comment.trim() } });
  return announceAndRead(deps, userId, messageId);
}

/**
 * Stores a cleaned-up version of the message's text in aiFixed, beside the original (never
 * replaced): fillers, stutters, capitals, punctuation; by the LLM when configured, else by rules.
 * An encrypted message's fix is stored encrypted.
 */
export async function aiFixMessage(deps: AppDeps, user: AuthUser, messageId: string): Promise<{ message: MessageDto }> {
  const stored = await findOwnMessage(deps.db, user.id, messageId);
  const [open] = await openMessages(deps, user.id, [stored]);
  if (!open || open.text === UNREADABLE_TEXT) {
    throw new AppError('PRECONDITION_FAILED', 'This message cannot be decrypted with the server key');
  }
  const key = stored.encrypted ? await loadDataKey(deps.db, deps.secrets.masterKey, user.id) : null;
  if (stored.encrypted && !key) throw new Error(`User ${user.id} has encrypted messages but no data key`);
  // The line goes in with the instructions, and comes out about as long.
  await meterGeneration(deps, user, { engine: serverEngine(deps), estimatedTokens: estimateTokens(open.text.length * 2, 256) }, async (meter) => {
    const { text: fixed, usage } = await callAi(deps, () => deps.ai.fixLine({ text: open.text, tier: modelTier(user) }));
    meter.addUsage(usage);
    if (!fixed) throw new AppError('PRECONDITION_FAILED', 'The message has no text to fix');
    const aiFixed = key ? encryptText(key, fixed, messageContext(stored.meetingId)) : fixed;
    // Only if the text is still the one fixed: a newer caption revision may have arrived meanwhile.
    const { count } = await deps.db.message.updateMany({
      where: { id: messageId, text: stored.text, encrypted: stored.encrypted, meeting: { userId: user.id } },
      data: { aiFixed },
    });
    if (!count) throw new AppError('CONFLICT', 'The message changed while it was being fixed; try again');
  });
  return { message: await announceAndRead(deps, user.id, messageId) };
}

/**
 * Locks the user's meeting row for the rest of the transaction. Transcript ingest updates that row
 * first too, so encryption and ingest of one meeting never interleave (no plain line slips in).
 */
async function lockOwnMeeting(tx: Prisma.TransactionClient, userId: string, meetingId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM "Meeting" WHERE id = ${meetingId} AND "userId" = ${userId} FOR UPDATE`;
  if (!rows.length) throw meetingNotFound();
}

/**
 * Sealed text is longer than plain: the meeting's size, which bounds what capture may add
 * (MAX_MEETING_TEXT_BYTES), is counted again from its lines as stored.
 */
async function recountStoredText(tx: Prisma.TransactionClient, meetingId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE "Meeting" SET "storedTextBytes" = LEAST(2147483647, (SELECT COALESCE(sum(octet_length(text)), 0) FROM "Message" WHERE "meetingId" = ${meetingId}))
    WHERE id = ${meetingId}`;
}

/** Encrypts the text (and AI-fixed text) of one message at rest; encrypting twice changes nothing. */
export async function encryptMessage(deps: AppDeps, userId: string, messageId: string): Promise<MessageDto> {
  const { meetingId } = await findOwnMessage(deps.db, userId, messageId);
  const changed = await deps.db.$transaction(async (tx) => {
    await lockOwnMeeting(tx, userId, meetingId);
    const message = await findOwnMessage(tx, userId, messageId);
    if (message.encrypted) return false;
    const key = await ensureDataKey(tx, deps.secrets.masterKey, userId);
    await tx.message.update({
      where: { id: message.id },
      data: { ...sealMessageTexts(key, meetingId, message), encrypted: true },
    });
    await recountStoredText(tx, meetingId);
    return true;
  });
  return changed ? announceAndRead(deps, userId, messageId) : readMessage(deps, userId, messageId);
}

/**
 * Encrypts every message of a meeting and marks the meeting encrypted, so lines ingested later are
 * stored encrypted too. One transaction: either every message is sealed or none is.
 */
export async function encryptMeeting(deps: AppDeps, userId: string, meetingId: string): Promise<{ success: true }> {
  const { sealedIds, recapMessageId } = await deps.db.$transaction(
    async (tx) => {
      await lockOwnMeeting(tx, userId, meetingId);
      const key = await ensureDataKey(tx, deps.secrets.masterKey, userId);
      const plain = await tx.message.findMany({
        where: { meetingId, encrypted: false },
        select: { id: true, text: true, aiFixed: true },
      });
      if (plain.length) {
        const sealed = plain.map((m) => sealMessageTexts(key, meetingId, m));
        // One statement for the whole meeting: thousands of lines must not hold the lock for long.
        await tx.$executeRaw`
          UPDATE "Message" AS m
          SET "text" = v.text, "aiFixed" = v.ai_fixed, "encrypted" = true, "lastUpdated" = now()
          FROM unnest(${plain.map((m) => m.id)}::text[], ${sealed.map((s) => s.text)}::text[],
                      ${sealed.map((s) => s.aiFixed)}::text[]) AS v(id, text, ai_fixed)
          WHERE m.id = v.id AND m."meetingId" = ${meetingId}`;
      }
      // Summaries quote the meeting: they (and their translations) are sealed with it.
      const summaries = await tx.summary.findMany({
        where: { meetingId, encrypted: false },
        select: { id: true, text: true, translations: true },
      });
      for (const summary of summaries) {
        await tx.summary.update({
          where: { id: summary.id },
          data: { encrypted: true, ...sealSummaryTexts(key, meetingId, summary) },
        });
      }
      // The recap quotes the summary: sealed too. Its row lock waits for a send in progress (which
      // writes the outbox file), so the file removed below is never rewritten in clear after it.
      const [recap] = await tx.$queryRaw<{ id: string; messageId: string; encrypted: boolean; html: string; text: string }[]>`
        SELECT id, "messageId", encrypted, html, text FROM "Recap" WHERE "meetingId" = ${meetingId} FOR UPDATE`;
      if (recap && !recap.encrypted) {
        await tx.recap.update({ where: { id: recap.id }, data: { encrypted: true, ...sealRecapTexts(key, meetingId, recap) } });
      }
      if (plain.length) await recountStoredText(tx, meetingId);
      // A share link would show sealed text to anyone: encrypting stops sharing.
      await tx.meeting.update({ where: { id: meetingId }, data: { encrypted: true, shareTokenHash: null, sharedAt: null } });
      return { sealedIds: plain.map((m) => m.id), recapMessageId: recap && !recap.encrypted ? recap.messageId : null };
    },
    { timeout: 60_000 },
  );
  // Its outbox copy holds the recap in clear: the Outbox page shows it from the sealed row instead.
  if (recapMessageId) await removeOutboxFiles(deps.config, [recapMessageId]);
  deps.events.emit('meeting.changed', { userId, meetingId, kind: 'updated' });
  // Every line of the meeting may have changed: subscribers read them (an event of rows would be too large).
  if (sealedIds.length) deps.events.emit('meeting.lines', { userId, meetingId, messageIds: sealedIds });
  return { success: true };
}
