import { randomBytes } from 'node:crypto';
import type { IngestLinesInput, TranscriptLine } from '@mbox/shared';
import { GroupCommit } from '../../db/group-commit.js';
import { hotRows } from '../../db/hot-rows.js';
import type { AppDeps } from '../../deps.js';
import { Prisma, type Message } from '../../generated/prisma/client.js';

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Row ids in the shape of Prisma's cuid() default (25 lower-case characters, starting with `c`, time
 * first), made here because the rows are written by one SQL statement rather than through Prisma.
 */
export function newIds(count: number): string[] {
  const time = Date.now().toString(36).padStart(8, '0');
  const random = randomBytes(count * 16);
  return Array.from({ length: count }, (_, i) => {
    let id = `c${time}`;
    for (let j = i * 16; j < i * 16 + 16; j++) id += ID_ALPHABET[random[j]! % 36];
    return id;
  });
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
export interface OutgoingLine {
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
export interface Written {
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
 * THE write of caption lines, one statement for several posts (of different sessions; see writeBatch):
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

/**
 * One group commit per database: while two statements are out, the posts that arrive go together in
 * the next one, one per session (a statement upserts a line once). Without it, at 1,000 posts a second
 * on 2 cores the posts queued for connections faster than they were served (docs/performance.md).
 */
const writers = new WeakMap<AppDeps['database'], GroupCommit<Batch, Written>>();

/** Writes one post's lines, in a statement it may share with other posts (writeBatches). */
export function writeBatch(deps: AppDeps, userId: string, info: IngestLinesInput['meeting'], names: string[], lines: OutgoingLine[]): Promise<Written> {
  let writer = writers.get(deps.database);
  if (!writer) {
    writer = new GroupCommit({
      maxInFlight: 2,
      maxPerGroup: MAX_BATCHES_PER_STATEMENT,
      keyOf: (batch) => `${batch.userId}\n${batch.info.sessionId}`,
      writeGroup: (batches) => writeBatches(deps, batches),
    });
    writers.set(deps.database, writer);
  }
  return writer.write({ userId, info, names, lines });
}
