import { meetingSchema, messageSchema, type Meeting as MeetingDto, type MeetingDetail, type Message as MessageDto } from '@mbox/shared';
import { UNREADABLE_TEXT, openMessages } from '../../crypto/encryption.js';
import { hotRows } from '../../db/hot-rows.js';
import { epochMs, epochMsOf } from '../../db/json-sql.js';
import type { AppDeps } from '../../deps.js';
import { Prisma } from '../../generated/prisma/client.js';
import { LINE_COUNT, MEETING_JSON, MESSAGE_JSON, messageJsonDto, readMessages } from './rows.js';
import { meetingNotFound } from './service.js';

/**
 * The whole meeting with every line: the export path (product.md, API's REST answer) for readers that want it
 * all at once, in one query. The web app reads pages (getMeetingMessages) instead.
 */
export async function getMeeting(deps: AppDeps, userId: string, meetingId: string): Promise<MeetingDetail> {
  const [found] = await hotRows<{ meeting: string; messages: string }>(
    deps.database.hot,
    Prisma.sql`
    SELECT ${MEETING_JSON}::text AS meeting,
      (SELECT coalesce(json_agg(${MESSAGE_JSON} ORDER BY c."spokenAt", c.id), '[]')::text
       FROM "Message" c WHERE c."meetingId" = m.id) AS messages
    FROM "Meeting" m WHERE m.id = ${meetingId} AND m."userId" = ${userId}`,
  );
  if (!found) throw meetingNotFound();
  const messages = await openMessages(deps, userId, readMessages(found.messages));
  return { meet: JSON.parse(found.meeting) as MeetingDto, messages: messages.map(messageJsonDto) };
}

/** Lines per query when every line of a meeting is read (readMeetingInPages). */
const WHOLE_MEETING_PAGE = 1000;

/**
 * Lets the event loop serve other requests between two pages, one page of all the readers at a time: each
 * reader waits for the turn of the loop after the previous reader's. Embedded PGlite answers a query
 * without any I/O (its promises settle as microtasks), so otherwise a whole meeting would be read in one
 * turn of the loop however it is paged, and four readers woken in the same turn would read four pages.
 */
let lastTurn = Promise.resolve();
function betweenPages(): Promise<void> {
  lastTurn = lastTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  return lastTurn;
}

/** A meeting whose lines are read a page at a time, as they are consumed. */
export interface MeetingInPages {
  meet: MeetingDto;
  /** How many lines it has (as the pages' `total`), known before they are read. */
  lineCount: number;
  /** Who spoke, in order of first words; read only for a meeting that stored no participants. */
  speakers: string[];
  pages: AsyncGenerator<MessageDto[]>;
}

/**
 * The whole meeting, for readers of every line (`GET /v1/meeting/{id}`, the JSON export), read a page
 * at a time as the reader takes them: memory holds a page, not the meeting. The meeting is read first
 * (NOT_FOUND before anything is written); its lines follow in transcript order, keyset-paged on
 * (spokenAt, id) as getMeetingMessages pages. Each page's last spokenAt comes back as text, so a time
 * JavaScript cannot hold still marks where the next page starts.
 */
export async function readMeetingInPages(deps: AppDeps, userId: string, meetingId: string): Promise<MeetingInPages> {
  const [found] = await hotRows<{ meeting: string; total: number; speakers: string[] }>(
    deps.database.hot,
    Prisma.sql`
    SELECT ${MEETING_JSON}::text AS meeting, ${LINE_COUNT} AS total,
      CASE WHEN cardinality(m.users) > 0 THEN ARRAY[]::text[] ELSE
        (SELECT coalesce(array_agg(s."user" ORDER BY s.first), ARRAY[]::text[])
         FROM (SELECT c."user", min(c."spokenAt") AS first FROM "Message" c WHERE c."meetingId" = m.id GROUP BY c."user") s)
      END AS speakers
    FROM "Meeting" m WHERE m.id = ${meetingId} AND m."userId" = ${userId}`,
  );
  if (!found) throw meetingNotFound();
  async function* pages(): AsyncGenerator<MessageDto[]> {
    for (let after: { spokenAt: string; id: string } | null = null; ; ) {
      const boundary: Prisma.Sql = after
        ? Prisma.sql`AND c."spokenAt" >= ${after.spokenAt}::timestamp AND (c."spokenAt", c.id) > (${after.spokenAt}::timestamp, ${after.id})`
        : Prisma.empty;
      const [page] = await hotRows<{ lines: string; lastSpokenAt: string | null }>(
        deps.database.hot,
        Prisma.sql`
        SELECT coalesce(json_agg(p.line ORDER BY p."spokenAt", p.id), '[]')::text AS lines,
               (array_agg(p."spokenAt"::text ORDER BY p."spokenAt" DESC, p.id DESC))[1] AS "lastSpokenAt"
        FROM (SELECT ${MESSAGE_JSON} AS line, c."spokenAt", c.id FROM "Message" c
              WHERE c."meetingId" = ${meetingId} ${boundary}
              ORDER BY c."spokenAt", c.id LIMIT ${WHOLE_MEETING_PAGE}) p`,
      );
      const rows = readMessages(page?.lines ?? '[]');
      await betweenPages();
      if (rows.length) yield (await openMessages(deps, userId, rows)).map(messageJsonDto);
      if (rows.length < WHOLE_MEETING_PAGE || !page?.lastSpokenAt) return;
      after = { spokenAt: page.lastSpokenAt, id: rows.at(-1)!.id };
    }
  }
  return { meet: JSON.parse(found.meeting) as MeetingDto, lineCount: found.total, speakers: found.speakers, pages: pages() };
}

/** A line as the AI reads it, written by the database as JSON: [speaker, text, id, spokenAt, encrypted]. */
type TranscriptRow = [string, string, string, number, boolean];
const TRANSCRIPT_ROW = Prisma.raw(
  `json_build_array(p."user", p.text, p.id, coalesce(${epochMs('p."spokenAt"')}, ${epochMsOf('p."lastUpdated"')}), p.encrypted)`,
);

/** A page of a meeting's lines as the AI reads them (readTranscriptInPages). */
export interface TranscriptRowsPage {
  /** JSON array of [speaker, text, id, spokenAt, encrypted] rows in transcript order, texts in plain form. */
  rows: string;
  /** Lines on the page. */
  lines: number;
  /** Up to two of its speakers: enough for the rule of what can be summarised. */
  speakers: string[];
  /** Some text was encrypted. */
  encrypted: boolean;
  /** Characters of its speakers and texts (plus 2 a line). */
  chars: number;
}

/**
 * A meeting's lines for a summary, a page at a time as readMeetingInPages reads them, each page one JSON
 * text written by the database in the shape the AI reads, so the event loop neither parses nor rebuilds
 * 20,000 lines (docs/performance.md, "Offline summaries"); pages with encrypted text are opened here.
 * The caller checks the meeting is the user's first (readMeetingInPages).
 */
export async function* readTranscriptInPages(deps: AppDeps, userId: string, meetingId: string): AsyncGenerator<TranscriptRowsPage> {
  for (let after: { spokenAt: string; id: string } | null = null; ; ) {
    const boundary: Prisma.Sql = after
      ? Prisma.sql`AND c."spokenAt" >= ${after.spokenAt}::timestamp AND (c."spokenAt", c.id) > (${after.spokenAt}::timestamp, ${after.id})`
      : Prisma.empty;
    const [page] = await hotRows<TranscriptRowsPage & { lastSpokenAt: string | null; lastId: string | null }>(
      deps.database.hot,
      Prisma.sql`
      SELECT coalesce(json_agg(${TRANSCRIPT_ROW} ORDER BY p."spokenAt", p.id), '[]')::text AS rows,
             count(*)::int AS lines,
             coalesce((array_agg(DISTINCT p."user"))[1:2], ARRAY[]::text[]) AS speakers,
             coalesce(bool_or(p.encrypted), false) AS encrypted,
             coalesce(sum(length(p."user") + length(p.text) + 2), 0)::int AS chars,
             (array_agg(p."spokenAt"::text ORDER BY p."spokenAt" DESC, p.id DESC))[1] AS "lastSpokenAt",
             (array_agg(p.id ORDER BY p."spokenAt" DESC, p.id DESC))[1] AS "lastId"
      FROM (SELECT c."user", c.text, c.id, c."spokenAt", c."lastUpdated", c.encrypted FROM "Message" c
            WHERE c."meetingId" = ${meetingId} ${boundary}
            ORDER BY c."spokenAt", c.id LIMIT ${WHOLE_MEETING_PAGE}) p`,
    );
    if (!page || page.lines === 0) return;
    await betweenPages();
    const { lastSpokenAt, lastId, ...rows } = page;
    yield rows.encrypted ? await openTranscriptRows(deps, userId, meetingId, rows) : rows;
    if (page.lines < WHOLE_MEETING_PAGE || !lastSpokenAt || !lastId) return;
    after = { spokenAt: lastSpokenAt, id: lastId };
  }
}

/** A page with encrypted texts, opened: texts that cannot be decrypted are left out. */
async function openTranscriptRows(deps: AppDeps, userId: string, meetingId: string, page: TranscriptRowsPage): Promise<TranscriptRowsPage> {
  const rows = JSON.parse(page.rows) as TranscriptRow[];
  const opened = await openMessages(
    deps,
    userId,
    rows.map(([, text, , , encrypted]) => ({ meetingId, text, aiFixed: null, encrypted })),
  );
  const readable = rows.flatMap(([speaker, , id, spokenAt], i): TranscriptRow[] =>
    opened[i]!.text === UNREADABLE_TEXT ? [] : [[speaker, opened[i]!.text, id, spokenAt, false]],
  );
  const chars = readable.reduce((n, [speaker, text]) => n + speaker.length + text.length + 2, 0);
  return { ...page, rows: JSON.stringify(readable), chars };
}

/** JSON.stringify(value, null, space) for a place `depth` levels deep in a document so indented. */
export function jsonAt(value: unknown, space: number, depth: number): string {
  const text = JSON.stringify(value, null, space);
  return space && depth ? text.replaceAll('\n', `\n${' '.repeat(space * depth)}`) : text;
}

/**
 * The meeting's JSON text, `{ meet, messages }` exactly as `JSON.stringify(detail, null, space)` would
 * write it `depth` levels deep, in pieces: the meeting, then a piece per page of lines. Each piece is
 * checked against the shared schemas first, as the call's output schema checks a whole answer.
 */
export async function* meetingDetailJson(meeting: MeetingInPages, space = 0, depth = 0): AsyncGenerator<string> {
  const indent = (level: number) => (space ? `\n${' '.repeat(space * level)}` : '');
  const colon = space ? ': ' : ':';
  yield `{${indent(depth + 1)}"meet"${colon}${jsonAt(meetingSchema.parse(meeting.meet), space, depth + 1)},${indent(depth + 1)}"messages"${colon}[`;
  let written = 0;
  for await (const page of meeting.pages) {
    yield page.map((message) => `${written++ ? ',' : ''}${indent(depth + 2)}${jsonAt(messageSchema.parse(message), space, depth + 2)}`).join('');
  }
  yield `${written ? indent(depth + 1) : ''}]${indent(depth)}}`;
}
