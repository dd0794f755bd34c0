import {
  uniqueParticipants,
  type CaptureEvent,
  type IngestEventsInput,
  type IngestEventsOutput,
  type IngestLinesInput,
  type IngestLinesOutput,
  type TranscriptLine,
} from '@mbox/shared';
import { AppError } from '../../app-error.js';
import { encryptText, ensureDataKey, messageContext } from '../../crypto/encryption.js';
import type { AppDeps } from '../../deps.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { announceLines } from '../message/service.js';
import { newIds, writeBatch, type MeetingBound, type OutgoingLine, type Written } from './line-statement.js';
import { markMeetingEnded } from './meeting-end.js';

/** Keeps the highest revision of each caption block when a batch repeats one. */
function latestPerCaption(lines: TranscriptLine[]): TranscriptLine[] {
  const latest = new Map<string, TranscriptLine>();
  for (const line of lines) {
    const seen = latest.get(line.captionId);
    if (!seen || line.revision > seen.revision) latest.set(line.captionId, line);
  }
  return [...latest.values()];
}

/** The trimmed, non-empty names of a batch (participants, then speakers), each once, in order. */
function batchNames(info: IngestLinesInput['meeting'], speakers: string[]): string[] {
  return uniqueParticipants([...(info.participants ?? []), ...speakers]);
}

/**
 * Creates the meeting of a capture session (its first batch); false when it exists already, or a
 * concurrent first batch created it a moment before. `searchConfig` is the text-search configuration
 * its lines are indexed with, from the capturing browser's language.
 */
async function createMeeting(
  db: AppDeps['db'] | Prisma.TransactionClient,
  userId: string,
  info: IngestLinesInput['meeting'],
  names: string[],
  searchConfig: string,
): Promise<boolean> {
  const [id] = newIds(1);
  const created = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO "Meeting" (id, "userId", "sessionId", "meetCode", title, "startedAt", users, "searchConfig", "createdAt", "updatedAt")
    VALUES (${id}, ${userId}, ${info.sessionId}, ${info.meetCode}, ${info.title?.trim() ?? ''},
            TIMESTAMP '1970-01-01' + ${info.startedAt}::bigint * INTERVAL '1 millisecond', ${names}::text[], ${searchConfig},
            now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
    ON CONFLICT ("userId", "sessionId") DO NOTHING
    RETURNING id`;
  return created.length > 0;
}

/**
 * The 413 of a batch that would take its meeting past a bound, naming the bound and its setting; the
 * statement wrote nothing of it.
 */
export function meetingBoundError(deps: AppDeps, bound: MeetingBound): AppError {
  const limit =
    bound === 'lines'
      ? `${deps.config.MAX_LINES_PER_MEETING.toLocaleString('en-US')} lines per meeting (MAX_LINES_PER_MEETING)`
      : `${deps.config.MAX_MEETING_TEXT_BYTES.toLocaleString('en-US')} bytes of text per meeting (MAX_MEETING_TEXT_BYTES)`;
  return new AppError('PAYLOAD_TOO_LARGE', `Meeting too long: at most ${limit}; none of these lines was stored`);
}

function refuseCrossing(deps: AppDeps, written: Written): Written {
  if (written.crossed) throw meetingBoundError(deps, written.crossed);
  return written;
}

/** The bound a session's first batch crosses on its own (the meeting is still empty), if any. */
function boundCrossedByFirstBatch(deps: AppDeps, lines: TranscriptLine[]): MeetingBound | null {
  if (lines.length > deps.config.MAX_LINES_PER_MEETING) return 'lines';
  const bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line.text, 'utf8'), 0);
  return bytes > deps.config.MAX_MEETING_TEXT_BYTES ? 'bytes' : null;
}

/**
 * Stores a batch of caption lines: upsert by (meeting, captionId), where a lower or equal revision never
 * overwrites a higher one. Resending a batch changes nothing, so the extension may retry freely.
 *
 * A batch that would take the meeting past MAX_LINES_PER_MEETING lines or MAX_MEETING_TEXT_BYTES bytes
 * of text is refused whole with 413 (meetingBoundError): nothing of it is stored, and the extension keeps it.
 *
 * One statement per batch (writeBatch), sent as the lines came. It is sent again, with texts sealed by
 * the user's data key, only when it finds the meeting encrypted or lines of it encrypted on their own,
 * and after creating the meeting on a session's first batch. The changed rows come back from the
 * statement and travel in the live event.
 */
export async function ingestLines(deps: AppDeps, userId: string, input: IngestLinesInput, searchConfig: string): Promise<IngestLinesOutput> {
  const { meeting: info } = input;
  const lines = latestPerCaption(input.lines);
  const names = batchNames(info, lines.map((l) => l.speaker));
  let outgoing: OutgoingLine[] = lines.map((line) => ({ line, text: line.text, encrypted: false }));
  let isNew = false;
  let key: Buffer | null = null;
  const seal = async (meetingId: string, toSeal: OutgoingLine[]) => {
    key ??= await ensureDataKey(deps.db, deps.secrets.masterKey, userId);
    const context = messageContext(meetingId);
    return toSeal.map((l) => ({ ...l, text: encryptText(key!, l.line.text, context), encrypted: true }));
  };

  let written = refuseCrossing(deps, await writeBatch(deps, userId, info, names, outgoing));
  if (written.meetingId === null) {
    // A first batch larger than a whole meeting may be is refused before its meeting is created.
    refuseCrossing(deps, { ...written, crossed: boundCrossedByFirstBatch(deps, lines) });
    isNew = await createMeeting(deps.db, userId, info, names, searchConfig);
    written = refuseCrossing(deps, await writeBatch(deps, userId, info, names, outgoing));
    if (written.meetingId === null) throw new Error(`Meeting of session ${info.sessionId} neither found nor created`);
  }
  const meetingId = written.meetingId;
  const rows = written.rows;
  if (written.meetingEncrypted && !outgoing.every((l) => l.encrypted)) {
    // Nothing of the batch was written: every line of an encrypted meeting is sealed.
    outgoing = await seal(meetingId, outgoing);
    rows.push(...refuseCrossing(deps, await writeBatch(deps, userId, info, names, outgoing)).rows);
  }
  // Lines whose message was encrypted on its own came back unchanged: their newer revision is sealed too.
  const sent = new Map(outgoing.map((l) => [l.line.captionId, l]));
  const unsealed = rows.filter((row) => {
    const line = sent.get(row.captionId)!;
    return row.encrypted && !line.encrypted && row.revision < line.line.revision;
  });
  if (unsealed.length) {
    const resealed = refuseCrossing(
      deps,
      await writeBatch(deps, userId, info, names, await seal(meetingId, unsealed.map((row) => sent.get(row.captionId)!))),
    );
    const kept = new Set(unsealed);
    rows.splice(0, rows.length, ...rows.filter((row) => !kept.has(row)), ...resealed.rows);
  }

  if (isNew) deps.events.emit('meeting.changed', { userId, meetingId, kind: 'created' });
  announceLines(deps, userId, meetingId, rows);
  return { meetingKey: meetingId, accepted: rows.length };
}

/**
 * Marks the meeting of a capture session finished and ends it (its recap and meeting.finished webhook
 * are queued in the same transaction); unknown sessions (no line ever sent) give null.
 */
export async function endMeeting(
  deps: AppDeps,
  userId: string,
  input: { sessionId: string; finishedAt: number },
): Promise<{ meetingKey: string | null }> {
  const result = await deps.db.$transaction(async (tx) => {
    const found = await tx.meeting.findUnique({
      where: { userId_sessionId: { userId, sessionId: input.sessionId } },
      select: { id: true },
    });
    if (!found) return null;
    // Serialises with a batch of lines of the same meeting (its upsert takes this lock).
    await tx.$queryRaw`SELECT 1 FROM "Meeting" WHERE id = ${found.id} FOR UPDATE`;
    const meeting = await tx.meeting.findUniqueOrThrow({ where: { id: found.id } });
    const finishedAt = new Date(Math.max(input.finishedAt, meeting.startedAt.getTime()));
    let changed = false;
    // Keep the latest end: an early end from a closed tab must not undo a later one.
    if (!meeting.finishedAt || meeting.finishedAt < finishedAt) {
      await tx.meeting.update({ where: { id: meeting.id }, data: { finishedAt } });
      // A gap still open (its tab closed before reporting the end) ends with the meeting.
      await tx.meetingEvent.updateMany({
        where: { meetingId: meeting.id, endedAt: null, startedAt: { lte: finishedAt } },
        data: { endedAt: finishedAt },
      });
      changed = true;
    }
    if (await markMeetingEnded(deps, tx, meeting)) changed = true;
    return { meetingId: meeting.id, changed };
  });
  if (!result) return { meetingKey: null };
  if (result.changed) deps.events.emit('meeting.changed', { userId, meetingId: result.meetingId, kind: 'finished' });
  return { meetingKey: result.meetingId };
}

/**
 * The meeting of a capture session, created when no line came yet, with the batch's title and names
 * merged in; its row stays locked until the transaction ends.
 */
async function lockSessionMeeting(
  tx: Prisma.TransactionClient,
  userId: string,
  info: IngestLinesInput['meeting'],
  searchConfig: string,
): Promise<{ id: string; isNew: boolean }> {
  const names = batchNames(info, []);
  const isNew = await createMeeting(tx, userId, info, names, searchConfig);
  const [meeting] = await tx.$queryRaw<{ id: string; title: string; users: string[] }[]>`
    SELECT id, title, users FROM "Meeting" WHERE "userId" = ${userId} AND "sessionId" = ${info.sessionId} FOR NO KEY UPDATE`;
  if (!meeting) throw new Error(`Meeting of session ${info.sessionId} neither found nor created`);
  const title = info.title?.trim();
  const users = [...new Set([...meeting.users, ...names])];
  if ((title && title !== meeting.title) || users.length !== meeting.users.length) {
    await tx.meeting.update({ where: { id: meeting.id }, data: { ...(title ? { title } : {}), users } });
  }
  return { id: meeting.id, isNew };
}

/** The latest report of each gap in a batch: a closed report wins over an open one, the later end over an earlier. */
function latestPerEvent(events: CaptureEvent[]): CaptureEvent[] {
  const latest = new Map<string, CaptureEvent>();
  for (const event of events) {
    const seen = latest.get(event.eventId);
    if (!seen || (event.endedAt ?? -1) > (seen.endedAt ?? -1)) latest.set(event.eventId, event);
  }
  return [...latest.values()];
}

/**
 * Stores capture gaps of a session's meeting, creating the meeting when no line came yet (captions off
 * from the start). Idempotent by eventId: a gap reported open and then closed is one event; an end is
 * never undone by a resent open report, and only a later end moves it.
 */
export async function ingestEvents(deps: AppDeps, userId: string, input: IngestEventsInput, searchConfig: string): Promise<IngestEventsOutput> {
  const events = latestPerEvent(input.events);
  const result = await deps.db.$transaction(async (tx) => {
    const meeting = await lockSessionMeeting(tx, userId, input.meeting, searchConfig);
    const { isNew } = meeting;
    const stored = await tx.meetingEvent.findMany({
      where: { meetingId: meeting.id, clientId: { in: events.map((e) => e.eventId) } },
      select: { clientId: true, endedAt: true },
    });
    const storedEnd = new Map(stored.map((e) => [e.clientId, e.endedAt?.getTime() ?? null]));
    const fresh = events.filter((e) => !storedEnd.has(e.eventId));
    const created = fresh.length
      ? await tx.meetingEvent.createMany({
          data: fresh.map((e) => ({
            meetingId: meeting.id,
            clientId: e.eventId,
            kind: e.kind,
            startedAt: new Date(e.startedAt),
            endedAt: e.endedAt === undefined ? null : new Date(e.endedAt),
          })),
          skipDuplicates: true,
        })
      : { count: 0 };
    let updated = 0;
    for (const event of events) {
      if (event.endedAt === undefined || !storedEnd.has(event.eventId)) continue;
      const end = storedEnd.get(event.eventId) ?? null;
      if (end !== null && end >= event.endedAt) continue;
      const { count } = await tx.meetingEvent.updateMany({
        where: {
          meetingId: meeting.id,
          clientId: event.eventId,
          OR: [{ endedAt: null }, { endedAt: { lt: new Date(event.endedAt) } }],
        },
        data: { endedAt: new Date(event.endedAt) },
      });
      updated += count;
    }
    return { meetingId: meeting.id, isNew, accepted: created.count + updated };
  });
  if (result.isNew) deps.events.emit('meeting.changed', { userId, meetingId: result.meetingId, kind: 'created' });
  // Readers of the transcript refresh its gaps on meeting updates.
  else if (result.accepted) deps.events.emit('meeting.changed', { userId, meetingId: result.meetingId, kind: 'updated' });
  return { meetingKey: result.meetingId, accepted: result.accepted };
}
