import type {
  CaptureEvent,
  IngestEventsInput,
  IngestEventsOutput,
  IngestLinesInput,
  IngestLinesOutput,
  TranscriptLine,
} from '@mbox/shared';
import { encryptText, ensureDataKey, messageContext } from '../../crypto/encryption.js';
import type { AppDeps } from '../../deps.js';
import type { Meeting, Prisma } from '../../generated/prisma/client.js';
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

function mergeNames(current: string[], added: Iterable<string>): string[] {
  const names = new Set(current);
  for (const name of added) if (name.trim()) names.add(name.trim());
  return [...names];
}

/**
 * Creates the meeting of a capture session on its first batch, or merges the latest facts into it.
 * The upsert takes the meeting row's lock until the transaction commits.
 */
async function upsertMeeting(
  tx: Prisma.TransactionClient,
  userId: string,
  info: IngestLinesInput['meeting'],
  speakers: string[],
): Promise<{ meeting: Meeting; isNew: boolean }> {
  const existing = await tx.meeting.findUnique({ where: { userId_sessionId: { userId, sessionId: info.sessionId } } });
  const meeting = await tx.meeting.upsert({
    where: { userId_sessionId: { userId, sessionId: info.sessionId } },
    create: {
      userId,
      sessionId: info.sessionId,
      meetCode: info.meetCode,
      title: info.title?.trim() ?? '',
      startedAt: new Date(info.startedAt),
      users: mergeNames(info.participants ?? [], speakers),
    },
    update: {
      ...(info.title?.trim() ? { title: info.title.trim() } : {}),
      users: mergeNames(existing?.users ?? [], [...(info.participants ?? []), ...speakers]),
    },
  });
  return { meeting, isNew: !existing };
}

/**
 * Stores a batch of caption lines: upsert by (meeting, captionId), where a lower or equal revision never
 * overwrites a higher one. Resending a batch changes nothing, so the extension may retry freely.
 */
export async function ingestLines(deps: AppDeps, userId: string, input: IngestLinesInput): Promise<IngestLinesOutput> {
  const { meeting: info } = input;
  const lines = latestPerCaption(input.lines);
  const speakers = lines.map((l) => l.speaker);

  const result = await deps.db.$transaction(async (tx) => {
    const { meeting, isNew: meetingIsNew } = await upsertMeeting(tx, userId, info, speakers);

    // The upsert above holds the meeting row's lock until commit, so meeting.encrypted and each
    // message's flag cannot change under us (encryption takes the same lock).
    const existing = await tx.message.findMany({
      where: { meetingId: meeting.id, captionId: { in: lines.map((l) => l.captionId) } },
      select: { captionId: true, revision: true, encrypted: true },
    });
    const encryptedCaptions = new Set(existing.filter((m) => m.encrypted).map((m) => m.captionId));
    const key =
      meeting.encrypted || encryptedCaptions.size ? await ensureDataKey(tx, deps.secrets.masterKey, userId) : null;
    const storedRevision = new Map(existing.map((m) => [m.captionId, m.revision]));
    const fresh = lines.filter((l) => !storedRevision.has(l.captionId));
    const newer = lines.filter((l) => (storedRevision.get(l.captionId) ?? Infinity) < l.revision);

    const toRow = (l: TranscriptLine) => {
      // A line of an encrypted meeting, or a newer revision of a message encrypted on its own, is sealed.
      const sealWith = meeting.encrypted || encryptedCaptions.has(l.captionId) ? key : null;
      return {
        captionId: l.captionId,
        revision: l.revision,
        final: l.final,
        user: l.speaker,
        userAvatar: l.avatar ?? '',
        text: sealWith ? encryptText(sealWith, l.text, messageContext(meeting.id)) : l.text,
        encrypted: sealWith !== null,
        spokenAt: new Date(l.spokenAt),
      };
    };
    const created = fresh.length
      ? await tx.message.createManyAndReturn({
          data: fresh.map((l) => ({ ...toRow(l), meetingId: meeting.id })),
          skipDuplicates: true,
          select: { id: true, captionId: true },
        })
      : [];
    const createdIds = new Set(created.map((m) => m.captionId));
    // A concurrent batch may have inserted some of the "fresh" lines first: update those by revision too.
    const toUpdate = [...newer, ...fresh.filter((l) => !createdIds.has(l.captionId))];
    let updated = 0;
    for (const line of toUpdate) {
      const { count } = await tx.message.updateMany({
        where: { meetingId: meeting.id, captionId: line.captionId, revision: { lt: line.revision } },
        data: toRow(line),
      });
      updated += count;
    }
    if (created.length + updated) {
      // New words: the idle clock restarts, and an ended meeting is open again (its recap, if sent, is not sent again).
      await tx.meeting.update({ where: { id: meeting.id }, data: { lastLineAt: new Date(), endedAt: null } });
    }
    const changedCaptions = [...createdIds, ...toUpdate.map((l) => l.captionId)];
    const changed = changedCaptions.length
      ? await tx.message.findMany({
          where: { meetingId: meeting.id, captionId: { in: changedCaptions } },
          select: { id: true },
        })
      : [];
    return {
      meetingId: meeting.id,
      isNew: meetingIsNew,
      accepted: created.length + updated,
      changedIds: created.length + updated ? changed.map((m) => m.id) : [],
    };
  });

  if (result.isNew) deps.events.emit('meeting.changed', { userId, meetingId: result.meetingId, kind: 'created' });
  if (result.changedIds.length) {
    deps.events.emit('meeting.lines', { userId, meetingId: result.meetingId, messageIds: result.changedIds });
  }
  return { meetingKey: result.meetingId, accepted: result.accepted };
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
export async function ingestEvents(deps: AppDeps, userId: string, input: IngestEventsInput): Promise<IngestEventsOutput> {
  const events = latestPerEvent(input.events);
  const result = await deps.db.$transaction(async (tx) => {
    const { meeting, isNew } = await upsertMeeting(tx, userId, input.meeting, []);
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
