import { randomBytes } from 'node:crypto';
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
import { hotRows } from '../../db/hot-rows.js';
import type { AppDeps } from '../../deps.js';
import { Prisma, type Message } from '../../generated/prisma/client.js';
import { announceLines } from '../message/service.js';
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

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Row ids in the shape of Prisma's cuid() default (25 lower-case characters, starting with `c`, time
 * first), made here because the rows are written by one SQL statement rather than through Prisma.
 */
function newIds(count: number): string[] {
  const time = Date.now().toString(36).padStart(8, '0');
  const random = randomBytes(count * 16);
  return Array.from({ length: count }, (_, i) => {
    let id = `c${time}`;
    for (let j = i * 16; j < i * 16 + 16; j++) id += ID_ALPHABET[random[j]! % 36];
    return id;
  });
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
 * How stale lastLineAt may get before a batch rewrites it: the meeting row is not rewritten on every
 * batch, and the idle sweep (MEETING_IDLE_MINUTES) can afford to see the last line a little early.
 */
function lineClockResolutionMs(deps: AppDeps): number {
  return Math.min(15_000, (deps.config.MEETING_IDLE_MINUTES * 60_000) / 10);
}

/** Posts written together in one statement at most. */
const MAX_BATCHES_PER_STATEMENT = 64;

/** Lines as the statement takes them: the text as it will be stored, sealed or not. */
interface OutgoingLine {
  line: TranscriptLine;
  text: string;
  encrypted: boolean;
}

/** One post's write: its session's meeting, title and names, and its lines. */
interface Batch {
  userId: string;
  info: IngestLinesInput['meeting'];
  names: string[];
  lines: OutgoingLine[];
}

/** Which bound of the meeting a batch would cross (MAX_LINES_PER_MEETING, MAX_MEETING_TEXT_BYTES). */
export type MeetingBound = 'lines' | 'bytes';

/**
 * What the statement answers for a batch: the meeting (null: no such meeting yet), the rows it wrote, as
 * stored, and the bound it would have crossed (then it wrote nothing).
 */
interface Written {
  meetingId: string | null;
  meetingEncrypted: boolean;
  rows: Message[];
  crossed: MeetingBound | null;
}

/** The batches as one JSON parameter: one string to send instead of many arrays escaped element by element. */
function incoming(batches: Batch[]) {
  return batches.map(({ userId, info, names, lines }, b) => {
    const ids = newIds(lines.length);
    return {
      b,
      user_id: userId,
      session_id: info.sessionId,
      title: info.title?.trim() ?? '',
      names,
      lines: lines.map(({ line, text, encrypted }, i) => ({
        id: ids[i],
        caption_id: line.captionId,
        revision: line.revision,
        final: line.final,
        speaker: line.speaker,
        avatar: line.avatar ?? '',
        text,
        encrypted,
        spoken_ms: line.spokenAt,
      })),
    };
  });
}

/**
 * Sets a column from the incoming line, or keeps it: a plain line never overwrites a message sealed on
 * its own (encrypted later than the meeting's other lines), it comes back unchanged for sealing instead.
 */
const keepSealed = (column: string) =>
  `"${column}" = CASE WHEN m.encrypted AND NOT excluded.encrypted THEN m."${column}" ELSE excluded."${column}" END`;
const UPSERT_SET = Prisma.raw(
  ['revision', 'final', 'user', 'userAvatar', 'text', 'encrypted', 'spokenAt', 'lastUpdated'].map(keepSealed).join(', '),
);

/**
 * THE write of caption lines, one statement for several posts (of different sessions; see BatchWriter):
 * locks each session's meeting row (encryption locks it too, so no plain line slips into a meeting
 * being encrypted) in id order, so that two such statements never wait on each other crosswise; leaves a
 * meeting's batch out whole when it would take the meeting past MAX_LINES_PER_MEETING lines or
 * MAX_MEETING_TEXT_BYTES bytes of text; upserts every line by (meeting, captionId) where the stored
 * revision is lower; and keeps the meeting's size (storedLines, storedTextBytes) and rewrites the rest of
 * its row only when something there changes (title, new names, an ended meeting reopened, an idle clock
 * older than its resolution). Writes no line of an encrypted meeting that comes unsealed.
 */
async function writeBatches(deps: AppDeps, batches: Batch[]): Promise<Written[]> {
  type Row = { b: number; lockedMeetingId: string | null; lockedMeetingEncrypted: boolean | null; crossed: MeetingBound | null };
  const result = await hotRows<Row & (Message | { [K in keyof Message]: null })>(
    deps.database.hot,
    Prisma.sql`
    WITH batch AS (
      SELECT * FROM json_to_recordset(${JSON.stringify(incoming(batches))}::json)
        AS b(b int, user_id text, session_id text, title text, names json, lines json)
      -- Always true; it makes the planner expect a row or two rather than a recordset's default 100, so
      -- that it finds each meeting in its indexes instead of hashing a scan of every meeting.
      WHERE b.b >= 0 AND b.b < ${MAX_BATCHES_PER_STATEMENT}
    ), meeting AS (
      -- Locked, so the size read here is the latest: a statement writing the same meeting waits.
      SELECT batch.b, batch.title AS new_title, batch.names, batch.lines,
             t.id, t.encrypted, t.title, t.users, t."endedAt", t."lastLineAt", t."storedLines", t."storedTextBytes"
      FROM batch JOIN "Meeting" AS t ON t."userId" = batch.user_id AND t."sessionId" = batch.session_id
      ORDER BY t.id
      FOR NO KEY UPDATE OF t
    ), candidate AS (
      -- Each line to write, with the stored row it replaces (null: a new line). Lines stored at this
      -- revision or a newer one are left out before the insert: ON CONFLICT would lock each such row (a
      -- write) only to find nothing to do, and re-sent batches are common. The stored row is a lookup in
      -- the (meetingId, captionId) index per line: LIMIT keeps the lateral a per-line subquery, which the
      -- planner would otherwise turn into a join and, with the recordset's unknown size, hash a read of
      -- every line of every meeting.
      SELECT meeting.id AS meeting_id, v.*, s.revision AS stored_revision, octet_length(s.text) AS stored_bytes
      FROM meeting CROSS JOIN LATERAL json_to_recordset(meeting.lines)
           AS v(id text, caption_id text, revision int, final boolean, speaker text, avatar text, text text, encrypted boolean, spoken_ms bigint)
      LEFT JOIN LATERAL (SELECT s.revision, s.text FROM "Message" s
                         WHERE s."meetingId" = meeting.id AND s."captionId" = v.caption_id LIMIT 1) AS s ON true
      WHERE (v.encrypted OR NOT meeting.encrypted) AND (s.revision IS NULL OR s.revision < v.revision)
    ), growth AS (
      SELECT meeting.id,
             count(candidate.id) FILTER (WHERE candidate.stored_revision IS NULL) AS lines,
             COALESCE(sum(octet_length(candidate.text) - COALESCE(candidate.stored_bytes, 0)), 0) AS bytes
      FROM meeting LEFT JOIN candidate ON candidate.meeting_id = meeting.id
      GROUP BY meeting.id, meeting."storedLines", meeting."storedTextBytes"
    ), verdict AS (
      -- A batch that adds nothing passes even when the meeting is past a bound (encrypting it, say, made
      -- its text longer): a resent or shrinking line changes nothing.
      SELECT meeting.id, CASE
               WHEN growth.lines > 0 AND meeting."storedLines" + growth.lines > ${deps.config.MAX_LINES_PER_MEETING} THEN 'lines'
               WHEN growth.bytes > 0 AND meeting."storedTextBytes" + growth.bytes > ${deps.config.MAX_MEETING_TEXT_BYTES} THEN 'bytes'
             END AS crossed
      FROM meeting JOIN growth ON growth.id = meeting.id
    ), upserted AS (
      INSERT INTO "Message" AS m
        (id, "meetingId", "captionId", revision, final, "user", "userAvatar", text, encrypted, "spokenAt", "lastUpdated")
      SELECT c.id, c.meeting_id, c.caption_id, c.revision, c.final, c.speaker, c.avatar, c.text, c.encrypted,
             TIMESTAMP '1970-01-01' + c.spoken_ms * INTERVAL '1 millisecond', now() AT TIME ZONE 'UTC'
      FROM candidate AS c JOIN verdict ON verdict.id = c.meeting_id AND verdict.crossed IS NULL
      ON CONFLICT ("meetingId", "captionId") DO UPDATE SET ${UPSERT_SET}
        WHERE m.revision < excluded.revision
      -- Named, not m.*: the row's search vector is no Message field (and no type the driver reads).
      -- xmax is 0 on a row this insert created, not on one it updated.
      RETURNING m.id, m."meetingId", m."captionId", m.revision, m.final, m."user", m."userAvatar", m.text,
                m."aiFixed", m.marks, m.comment, m.encrypted, m."spokenAt", m."lastUpdated", m.xmax = 0 AS inserted
    ), wrote AS (
      -- What the rows written add to the meeting's size. A row another statement stored after this one's
      -- snapshot counts its whole text (stored_bytes is null): at worst a few bytes too many, never too few.
      SELECT u."meetingId" AS id, count(*) FILTER (WHERE u.inserted) AS lines,
             sum(octet_length(u.text) - CASE WHEN u.inserted THEN 0 ELSE COALESCE(c.stored_bytes, 0) END) AS bytes
      FROM upserted AS u LEFT JOIN candidate AS c ON c.meeting_id = u."meetingId" AND c.caption_id = u."captionId"
      GROUP BY u."meetingId"
    ), added AS (
      SELECT meeting.id, COALESCE(array_agg(fresh.name ORDER BY fresh.first) FILTER (WHERE fresh.name IS NOT NULL), ARRAY[]::text[]) AS names
      FROM meeting LEFT JOIN LATERAL (
        SELECT n.name, min(n.ord) AS first
        FROM json_array_elements_text(meeting.names) WITH ORDINALITY AS n(name, ord)
        WHERE n.name <> ALL (meeting.users) GROUP BY n.name
      ) AS fresh ON true
      GROUP BY meeting.id
    ), touched AS (
      -- New words restart the idle clock and open an ended meeting again (a recap sent is not sent again).
      UPDATE "Meeting" AS t
      SET title = CASE WHEN meeting.new_title <> '' THEN meeting.new_title ELSE t.title END,
          users = t.users || added.names,
          "lastLineAt" = CASE WHEN wrote.id IS NOT NULL AND NOT COALESCE(clock_fresh, false) THEN now() AT TIME ZONE 'UTC' ELSE t."lastLineAt" END,
          "endedAt" = CASE WHEN wrote.id IS NOT NULL THEN NULL ELSE t."endedAt" END,
          "lineCount" = CASE WHEN wrote.id IS NOT NULL THEN NULL ELSE t."lineCount" END,
          "storedLines" = t."storedLines" + COALESCE(wrote.lines, 0),
          "storedTextBytes" = GREATEST(0, LEAST(2147483647, t."storedTextBytes" + COALESCE(wrote.bytes, 0))),
          "updatedAt" = CASE WHEN changed THEN now() AT TIME ZONE 'UTC' ELSE t."updatedAt" END
      FROM meeting JOIN added ON added.id = meeting.id LEFT JOIN wrote ON wrote.id = meeting.id,
           LATERAL (SELECT meeting."lastLineAt" >= now() AT TIME ZONE 'UTC' - ${lineClockResolutionMs(deps)} * INTERVAL '1 millisecond'
                    AS clock_fresh) AS clock,
           LATERAL (SELECT (meeting.new_title <> '' AND meeting.new_title <> meeting.title) OR cardinality(added.names) > 0
                           OR (wrote.id IS NOT NULL AND (meeting."endedAt" IS NOT NULL OR NOT COALESCE(clock_fresh, false)))
                    AS changed) AS change
      -- Only the size changes on most batches: the row's indexed columns stay as they are (a HOT update).
      WHERE t.id = meeting.id AND (changed OR wrote.id IS NOT NULL)
    )
    SELECT batch.b, meeting.id AS "lockedMeetingId", meeting.encrypted AS "lockedMeetingEncrypted", verdict.crossed,
           upserted.id, upserted."meetingId", upserted."captionId", upserted.revision, upserted.final, upserted."user",
           upserted."userAvatar", upserted.text, upserted."aiFixed", upserted.marks, upserted.comment, upserted.encrypted,
           upserted."spokenAt", upserted."lastUpdated"
    FROM batch LEFT JOIN meeting ON meeting.b = batch.b LEFT JOIN verdict ON verdict.id = meeting.id
         LEFT JOIN upserted ON upserted."meetingId" = meeting.id`,
  );
  const written = batches.map((): Written => ({ meetingId: null, meetingEncrypted: false, rows: [], crossed: null }));
  for (const { b, lockedMeetingId, lockedMeetingEncrypted, crossed, ...row } of result) {
    const batch = written[b]!;
    batch.meetingId = lockedMeetingId;
    batch.meetingEncrypted = lockedMeetingEncrypted ?? false;
    batch.crossed = crossed;
    // Named apart from the rows' own columns (meetingId, encrypted), which are null when no line was written.
    if (row.id !== null) batch.rows.push(row as Message);
  }
  return written;
}

/** Statements out at once; a post that finds them all out waits for one to come back, with the posts that came meanwhile. */
const MAX_STATEMENTS_IN_FLIGHT = 2;

/**
 * Group commit: while MAX_STATEMENTS_IN_FLIGHT statements are out, the posts that arrive go together in
 * the next one, up to MAX_BATCHES_PER_STATEMENT, one per session (a statement upserts a line once). What
 * a statement costs (a commit, a round trip, waking a backend, reading the answer) is then shared by as
 * many posts as came meanwhile: the busier the server, the bigger the groups. Without it, at 1,000 posts
 * a second on 2 cores the posts queued for connections faster than they were served (docs/performance.md).
 * When a group's statement fails, each of its posts is written alone, so one post's failure is its own.
 */
class BatchWriter {
  private queue: { batch: Batch; resolve: (written: Written) => void; reject: (error: unknown) => void }[] = [];
  private inFlight = 0;

  constructor(private readonly deps: AppDeps) {}

  write(batch: Batch): Promise<Written> {
    return new Promise((resolve, reject) => {
      this.queue.push({ batch, resolve, reject });
      this.send();
    });
  }

  private send(): void {
    while (this.inFlight < MAX_STATEMENTS_IN_FLIGHT && this.queue.length) {
      const group: typeof this.queue = [];
      const later: typeof this.queue = [];
      const sessions = new Set<string>();
      for (const queued of this.queue) {
        const session = `${queued.batch.userId}\n${queued.batch.info.sessionId}`;
        if (group.length < MAX_BATCHES_PER_STATEMENT && !sessions.has(session)) {
          sessions.add(session);
          group.push(queued);
        } else later.push(queued);
      }
      this.queue = later;
      this.inFlight += 1;
      void this.writeGroup(group).finally(() => {
        this.inFlight -= 1;
        this.send();
      });
    }
  }

  private async writeGroup(group: typeof this.queue): Promise<void> {
    try {
      const written = await writeBatches(this.deps, group.map((queued) => queued.batch));
      group.forEach((queued, i) => queued.resolve(written[i]!));
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      await Promise.all(group.map((queued) => this.writeGroup([queued])));
    }
  }
}

/** One writer per database: its posts share statements. */
const writers = new WeakMap<AppDeps['database'], BatchWriter>();

function writeBatch(deps: AppDeps, userId: string, info: IngestLinesInput['meeting'], names: string[], lines: OutgoingLine[]): Promise<Written> {
  let writer = writers.get(deps.database);
  if (!writer) {
    writer = new BatchWriter(deps);
    writers.set(deps.database, writer);
  }
  return writer.write({ userId, info, names, lines });
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
