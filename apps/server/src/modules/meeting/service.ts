import { TRPCError } from '@trpc/server';
import {
  MARKS,
  UNTITLED_MEETING,
  groupByDay,
  type Mark,
  type Meeting as MeetingDto,
  type MeetingDetail,
  type MeetingGroups,
  type MeetingEvent as MeetingEventDto,
  type MeetingMessages,
  captureEventKindSchema,
  type Message as MessageDto,
  MESSAGE_CURSOR_PATTERN,
  meetingSchema,
  messageSchema,
} from '@mbox/shared';
import { DecryptionError, UNREADABLE_TEXT, decryptText, loadDataKey, messageContext, openMessages } from '../../crypto/encryption.js';
import { hotRows } from '../../db/hot-rows.js';
import type { AppDeps } from '../../deps.js';
import { LiveFeed, untilAborted } from '../../events/live-feed.js';
import { Prisma, type Meeting, type Message } from '../../generated/prisma/client.js';

/**
 * Epoch ms of a time a client reported, or of a server-set fallback when the stored value cannot be read
 * back (year 10000+ comes out as an invalid date). Inputs are bounded now (timestampSchema), but rows stored
 * before must not break the list, or a transcript, forever.
 */
function clientTime(time: Date, fallback: Date): number {
  return Number.isNaN(time.getTime()) ? fallback.getTime() : time.getTime();
}

function optionalClientTime(time: Date | null): number | null {
  return time && !Number.isNaN(time.getTime()) ? time.getTime() : null;
}

/**
 * The reads below have PostgreSQL write their rows out as JSON, one text per answer: JSON.parse reads
 * it far faster than the driver reads rows of timestamps and arrays (a grouped list has 1,000 meetings,
 * an export 5,000+ lines), and each read is one round trip. Times come as epoch ms, null past year
 * 9999 (what servers before the input bounds stored; JavaScript cannot show it), as clientTime reads them.
 */
export const epochMs = (column: string) => `CASE WHEN ${column} < '10000-01-01' THEN ${epochMsOf(column)} END`;

/**
 * Epoch ms of a timestamp column that can be read back. date_part's double is exact to the millisecond
 * up to year 9999, and a sixth of a 1,000-meeting list's database time cheaper than extract's numeric.
 */
export const epochMsOf = (column: string) => `(date_part('epoch', ${column}) * 1000)::bigint`;

/**
 * The characters String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator), as a
 * PostgreSQL string for btrim: a title read as JSON is trimmed as `title.trim()` trims it.
 */
export const JS_TRIM_CODE_POINTS = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
  0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];
const JS_TRIM_SQL = `U&'${JS_TRIM_CODE_POINTS.map((code) => `\\${code.toString(16).padStart(4, '0')}`).join('')}'`;

/**
 * A meeting as the API shows it (meetingSchema), as the select list of the meeting row `m`: the title
 * trimmed, else 'Untitled meet'; `date` the start, else the creation. Participants are read as stored:
 * every write stores them trimmed and once each (uniqueParticipants; rows from before, by migration).
 * PostgreSQL writes such rows out as JSON objects (row_to_json) that need no reshaping: the grouped list
 * passes them on as text.
 */
const MEETING_COLUMNS = Prisma.sql`m.id AS key,
  coalesce(nullif(btrim(m.title, ${Prisma.raw(JS_TRIM_SQL)}), ''), ${UNTITLED_MEETING}) AS title,
  m."meetCode" AS "meetCode",
  ${Prisma.raw(`coalesce(${epochMs('m."startedAt"')}, ${epochMsOf('m."createdAt"')})`)} AS date,
  ${Prisma.raw(epochMsOf('m."createdAt"'))} AS "createdAt",
  ${Prisma.raw(epochMs('m."finishedAt"'))} AS "finishedAt",
  coalesce(m.users, '{}') AS users,
  m.encrypted AS encrypted,
  m."isAnalyzed" AS "isAnalyzed"`;
/** The meeting row `m` as a JSON object of the API's shape. */
const MEETING_JSON = Prisma.sql`(SELECT row_to_json(d) FROM (SELECT ${MEETING_COLUMNS}) d)`;

/** A message as the reads use it; meetingId and encrypted are what openMessages decrypts by. */
interface MessageJson {
  id: string;
  meetingId: string;
  captionId: string;
  user: string;
  userAvatar: string;
  text: string;
  aiFixed: string | null;
  marks: string[];
  comment: string;
  encrypted: boolean;
  final: boolean;
  spokenAt: number | null;
  lastUpdated: number;
}
/** A message row as MESSAGE_JSON writes it: an array, as MEETING_JSON, for the same reason. */
type MessageRow = [string, string, string, string, string, string, string | null, string[], string, boolean, boolean, number | null, number];
const MESSAGE_JSON = Prisma.raw(
  `json_build_array(c.id, c."meetingId", c."captionId", c."user", c."userAvatar", c.text, c."aiFixed", c.marks, c.comment, ` +
    `c.encrypted, c.final, ${epochMs('c."spokenAt"')}, ${epochMsOf('c."lastUpdated"')})`,
);
/** The messages of a JSON array of MESSAGE_JSON rows. */
function readMessages(json: string): MessageJson[] {
  return (JSON.parse(json) as MessageRow[]).map(([id, meetingId, captionId, user, userAvatar, text, aiFixed, marks, comment, encrypted, final, spokenAt, lastUpdated]) => ({
    id,
    meetingId,
    captionId,
    user,
    userAvatar,
    text,
    aiFixed,
    marks,
    comment,
    encrypted,
    final,
    spokenAt,
    lastUpdated,
  }));
}

const knownMarks = new Set<string>(MARKS);
const isMark = (mark: string): mark is Mark => knownMarks.has(mark);

/** The API form of a message read as JSON; give it a row whose texts openMessages has decrypted. */
function messageJsonDto(message: MessageJson): MessageDto {
  return {
    key: message.id,
    captionId: message.captionId,
    user: message.user,
    userAvatar: message.userAvatar,
    text: message.text,
    aiFixed: message.aiFixed,
    // Marks this server version does not know are left out, not failed on.
    marks: message.marks.length ? message.marks.filter(isMark) : [],
    comment: message.comment,
    encrypted: message.encrypted,
    final: message.final,
    spokenAt: message.spokenAt ?? message.lastUpdated,
    lastUpdated: message.lastUpdated,
  };
}

/** The API form of a message row Prisma read; give it a row whose texts openMessages has decrypted. */
export function toMessageDto(message: Message): MessageDto {
  const spokenAt = message.spokenAt.getTime();
  return messageJsonDto({
    ...message,
    spokenAt: Number.isNaN(spokenAt) ? null : spokenAt,
    lastUpdated: message.lastUpdated.getTime(),
  });
}

export function meetingNotFound(): TRPCError {
  return new TRPCError({ code: 'NOT_FOUND', message: 'Meeting not found' });
}

/** The user's meeting, or NOT_FOUND — also for another user's meeting, so its existence never leaks. */
export async function findOwnMeeting(deps: AppDeps, userId: string, meetingId: string): Promise<Meeting> {
  const meeting = await deps.db.meeting.findFirst({ where: { id: meetingId, userId } });
  if (!meeting) throw meetingNotFound();
  return meeting;
}

/** Whether the user has this meeting (another user's reads as absent, like findOwnMeeting's 404). */
export async function findMeetingExists(deps: AppDeps, userId: string, meetingId: string): Promise<boolean> {
  const meeting = await deps.db.meeting.findFirst({ where: { id: meetingId, userId }, select: { id: true } });
  return meeting !== null;
}

/** The user's newest meetings, a page of them, as the rows `m`: the userId + startedAt index serves it. */
function newestMeetings(userId: string, page: { limit: number; offset: number }): Prisma.Sql {
  return Prisma.sql`(SELECT * FROM "Meeting" WHERE "userId" = ${userId}
    ORDER BY "startedAt" DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}) m`;
}

/** Newest first, in one query. */
export async function listMeetings(
  deps: AppDeps,
  userId: string,
  page: { limit: number; offset: number },
): Promise<MeetingDto[]> {
  const [list] = await hotRows<{ meetings: string }>(
    deps.database.hot,
    Prisma.sql`
    SELECT coalesce(json_agg(d ORDER BY d.date DESC, d.key DESC), '[]')::text AS meetings
    FROM (SELECT ${MEETING_COLUMNS} FROM ${newestMeetings(userId, page)}) d`,
  );
  return JSON.parse(list?.meetings ?? '[]') as MeetingDto[];
}

/**
 * The newest meetings grouped by day in the user's timezone (product.md, API: grouped view), as the JSON text
 * of MeetingGroups. PostgreSQL writes each meeting's object, after its date and a tab, one per line; the
 * days come from the zone's one cached formatter (groupByDay), and the answer is put together around the
 * objects as they came: a 1,000-meeting list is neither parsed nor serialised again.
 */
export async function listMeetingGroupsJson(
  deps: AppDeps,
  user: { id: string; timezone: string },
  page: { limit: number; offset: number },
): Promise<string> {
  const [list] = await hotRows<{ meetings: string | null }>(
    deps.database.hot,
    Prisma.sql`
    SELECT string_agg(d.date || E'\t' || row_to_json(d)::text, E'\n' ORDER BY d.date DESC, d.key DESC) AS meetings
    FROM (SELECT ${MEETING_COLUMNS} FROM ${newestMeetings(user.id, page)}) d`,
  );
  // JSON text holds no raw tab or newline: they only part the fields and the meetings.
  const meetings = (list?.meetings ? list.meetings.split('\n') : []).map((line) => {
    const tab = line.indexOf('\t');
    return { date: Number(line.slice(0, tab)), json: line.slice(tab + 1) };
  });
  const groups = groupByDay(meetings, (m) => m.date, user.timezone).map(
    ({ day, label, items }) => `{"day":${JSON.stringify(day)},"label":${JSON.stringify(label)},"meetings":[${items.map((m) => m.json).join(',')}]}`,
  );
  return `{"groups":[${groups.join(',')}]}`;
}

/** listMeetingGroupsJson's answer as objects, for callers that pass them on as values (tRPC). */
export async function listMeetingGroups(deps: AppDeps, user: { id: string; timezone: string }, page: { limit: number; offset: number }): Promise<MeetingGroups> {
  return JSON.parse(await listMeetingGroupsJson(deps, user, page)) as MeetingGroups;
}

const messageOrder = [{ spokenAt: 'asc' as const }, { id: 'asc' as const }];

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

/**
 * The meeting `m`'s line count: stored when it ended (markMeetingEnded), else counted, which reads
 * every line's index entry (a millisecond for 10,000 lines). COALESCE runs the count only when needed.
 */
const LINE_COUNT = Prisma.sql`coalesce(m."lineCount", (SELECT count(*) FROM "Message" c WHERE c."meetingId" = m.id)::int)`;

/** Where a page starts, read from a cursor the schema has already checked. */
function parseCursor(cursor: string): { after: boolean; spokenAt: Date; id: string } {
  const [, side, ms, id] = MESSAGE_CURSOR_PATTERN.exec(cursor) ?? [];
  const spokenAt = new Date(Number(ms));
  if (!side || !id || Number.isNaN(spokenAt.getTime())) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'cursor: must be a cursor the server returned in next' });
  }
  return { after: side === 'after', spokenAt, id };
}

/**
 * `limit` lines of the meeting `m` from the cursor on (or from one end), as a JSON array in the order
 * read. The (meetingId, spokenAt) index finds the first row and yields rows in order; only ties in
 * spokenAt are sorted by id. The row comparison is the cursor; the plain `spokenAt >=` beside it is
 * what the index can seek on.
 */
function pageQuery(forward: boolean, cursor: { spokenAt: Date; id: string } | null, limit: number): Prisma.Sql {
  const boundary = !cursor
    ? Prisma.empty
    : forward
      ? Prisma.sql`AND c."spokenAt" >= ${cursor.spokenAt} AND (c."spokenAt", c.id) > (${cursor.spokenAt}, ${cursor.id})`
      : Prisma.sql`AND c."spokenAt" <= ${cursor.spokenAt} AND (c."spokenAt", c.id) < (${cursor.spokenAt}, ${cursor.id})`;
  const direction = Prisma.raw(forward ? 'ASC' : 'DESC');
  return Prisma.sql`(SELECT coalesce(json_agg(p.line ORDER BY p."spokenAt" ${direction}, p.id ${direction}), '[]')::text
    FROM (
      SELECT ${MESSAGE_JSON} AS line, c."spokenAt", c.id FROM "Message" c
      WHERE c."meetingId" = m.id ${boundary}
      ORDER BY c."spokenAt" ${direction}, c.id ${direction} LIMIT ${limit}
    ) p)`;
}

/**
 * One page of a meeting's lines in transcript order (spokenAt, then id), keyset-paged so page 20 of
 * a 10,000-line meeting costs what page 1 does; meeting, page and line count in one query.
 * The opening page (no cursor) is where a reader starts: the top of a finished meeting, the bottom of
 * a live one, whose newer lines then arrive over meeting.onLines. `next` reads on away from it.
 */
export async function getMeetingMessages(
  deps: AppDeps,
  userId: string,
  input: { id: string; cursor?: string | undefined; around?: string | undefined; limit: number },
): Promise<MeetingMessages> {
  if (input.around) return getMessagesAround(deps, userId, { id: input.id, around: input.around, limit: input.limit });
  const cursor = input.cursor ? parseCursor(input.cursor) : null;
  // One extra row tells whether another page follows.
  const read = (forward: boolean) => pageQuery(forward, cursor, input.limit + 1);
  const page = cursor ? read(cursor.after) : Prisma.sql`CASE WHEN m."finishedAt" IS NOT NULL THEN ${read(true)} ELSE ${read(false)} END`;
  const [found] = await hotRows<{ meeting: string; finished: boolean; total: number; lines: string }>(
    deps.database.hot,
    Prisma.sql`
    SELECT ${MEETING_JSON}::text AS meeting, m."finishedAt" IS NOT NULL AS finished,
      ${LINE_COUNT} AS total,
      ${page} AS lines
    FROM "Meeting" m WHERE m.id = ${input.id} AND m."userId" = ${userId}`,
  );
  if (!found) throw meetingNotFound();
  // Finished also when finishedAt is too far out to read (the meeting's finishedAt is null then).
  const forward = cursor ? cursor.after : found.finished;
  const rows = readMessages(found.lines);
  const more = rows.length > input.limit;
  const lines = rows.slice(0, input.limit);
  const last = lines.at(-1);
  const next = more && last ? `${forward ? 'after' : 'before'}.${last.spokenAt ?? last.lastUpdated}.${last.id}` : null;
  if (!forward) lines.reverse();
  const messages = await openMessages(deps, userId, lines);
  return { meet: JSON.parse(found.meeting) as MeetingDto, messages: messages.map(messageJsonDto), next, total: found.total };
}

/**
 * The page that opens a transcript at one line (a search result, a cited line): up to half the page
 * before it, then the line and those after it, in transcript order. `next` reads on after the page
 * (readers load the lines before it as they load any page). A key that is no line of the meeting: 404.
 */
async function getMessagesAround(deps: AppDeps, userId: string, input: { id: string; around: string; limit: number }): Promise<MeetingMessages> {
  const anchor = await deps.db.message.findFirst({
    where: { id: input.around, meetingId: input.id, meeting: { userId } },
    select: { id: true, spokenAt: true },
  });
  if (!anchor) {
    await findOwnMeeting(deps, userId, input.id);
    throw new TRPCError({ code: 'NOT_FOUND', message: 'around: no such line in this meeting' });
  }
  const before = Math.floor(input.limit / 2);
  // The anchor itself opens the forward read: a cursor just before it in (spokenAt, id) order.
  const [found] = await hotRows<{ meeting: string; total: number; before: string; after: string }>(
    deps.database.hot,
    Prisma.sql`
    SELECT ${MEETING_JSON}::text AS meeting,
      ${LINE_COUNT} AS total,
      ${pageQuery(false, anchor, before)} AS before,
      (SELECT coalesce(json_agg(p.line ORDER BY p."spokenAt", p.id), '[]')::text FROM (
        SELECT ${MESSAGE_JSON} AS line, c."spokenAt", c.id FROM "Message" c
        WHERE c."meetingId" = m.id AND c."spokenAt" >= ${anchor.spokenAt} AND (c."spokenAt", c.id) >= (${anchor.spokenAt}, ${anchor.id})
        ORDER BY c."spokenAt", c.id LIMIT ${input.limit - before + 1}
      ) p) AS after
    FROM "Meeting" m WHERE m.id = ${input.id} AND m."userId" = ${userId}`,
  );
  if (!found) throw meetingNotFound();
  const earlier = readMessages(found.before).reverse();
  const later = readMessages(found.after);
  const more = later.length > input.limit - before;
  const lines = [...earlier, ...later.slice(0, input.limit - before)];
  const last = lines.at(-1);
  const next = more && last ? `after.${last.spokenAt ?? last.lastUpdated}.${last.id}` : null;
  const messages = await openMessages(deps, userId, lines);
  return { meet: JSON.parse(found.meeting) as MeetingDto, messages: messages.map(messageJsonDto), next, total: found.total };
}

/** The meeting's capture gaps in time order; kinds this server version does not know are left out. */
export async function getMeetingEvents(deps: AppDeps, userId: string, meetingId: string): Promise<MeetingEventDto[]> {
  const meeting = await findOwnMeeting(deps, userId, meetingId);
  const rows = await deps.db.meetingEvent.findMany({
    where: { meetingId: meeting.id },
    orderBy: [{ startedAt: 'asc' }, { id: 'asc' }],
  });
  return rows.flatMap((row) => {
    const kind = captureEventKindSchema.safeParse(row.kind);
    if (!kind.success) return [];
    const startedAt = clientTime(row.startedAt, row.createdAt);
    return [{ key: row.id, kind: kind.data, startedAt, endedAt: optionalClientTime(row.endedAt) }];
  });
}

/** Removes the meeting with its messages and summaries (cascade). */
export async function deleteMeeting(deps: AppDeps, userId: string, meetingId: string): Promise<{ success: true }> {
  const { count } = await deps.db.meeting.deleteMany({ where: { id: meetingId, userId } });
  if (!count) throw meetingNotFound();
  deps.events.emit('meeting.changed', { userId, meetingId, kind: 'deleted' });
  return { success: true };
}

/**
 * Opens the sealed texts of lines that came in events, loading the user's data key once per
 * subscription (not once per event): an encrypted meeting's lines travel sealed.
 */
function lineOpener(deps: AppDeps, userId: string, meetingId: string): (line: MessageDto) => Promise<MessageDto> {
  let key: Promise<Buffer | null> | null = null;
  const context = messageContext(meetingId);
  return async (line) => {
    if (!line.encrypted) return line;
    key ??= loadDataKey(deps.db, deps.secrets.masterKey, userId).catch((error: unknown) => {
      deps.log.error({ err: error, userId }, 'data key cannot be unwrapped');
      return null;
    });
    const dataKey = await key;
    try {
      if (!dataKey) throw new DecryptionError('No data key');
      return {
        ...line,
        text: decryptText(dataKey, line.text, context),
        aiFixed: line.aiFixed === null ? null : decryptText(dataKey, line.aiFixed, context),
      };
    } catch (error) {
      deps.log.error({ err: error, userId, meetingId }, 'message cannot be decrypted');
      return { ...line, text: UNREADABLE_TEXT, aiFixed: null };
    }
  };
}

/**
 * New and updated lines of one meeting, to its owner, until the client leaves or the server stops.
 * Events carry the changed rows, so nothing is read per event; only one naming its lines (too large to
 * carry them) is read from the database. Lines are handed over as their event is dispatched; those
 * that need work first (a sealed text, a read) and any after them wait their turn, so order holds.
 */
export function feedLines(deps: AppDeps, userId: string, meetingId: string, signal: AbortSignal | undefined): LiveFeed<MessageDto> {
  return new LiveFeed(async (deliver, stop, listening) => {
    await findOwnMeeting(deps, userId, meetingId);
    const open = lineOpener(deps, userId, meetingId);
    let backlog: Promise<void> | null = null;
    let fail: (error: unknown) => void = () => {};
    const failed = new Promise<never>((_resolve, reject) => (fail = reject));
    const unlisten = deps.events.listen('meeting.lines', meetingId, (event) => {
      if (event.userId !== userId) return;
      if (!backlog && 'lines' in event && event.lines.every((line) => !line.encrypted)) {
        for (const line of event.lines) deliver(line);
        return;
      }
      const work = async () => {
        const lines =
          'lines' in event
            ? await Promise.all(event.lines.map(open))
            : (await openMessages(deps, userId, await deps.db.message.findMany({ where: { id: { in: event.messageIds }, meetingId }, orderBy: messageOrder }))).map(toMessageDto);
        if (!stop.aborted) for (const line of lines) deliver(line);
      };
      const queued: Promise<void> = (backlog ?? Promise.resolve()).then(work).then(
        () => {
          if (backlog === queued) backlog = null;
        },
        fail,
      );
      backlog = queued;
    });
    listening();
    try {
      await Promise.race([untilAborted(AbortSignal.any([deps.shutdown, stop])), failed]);
    } finally {
      unlisten();
    }
  }, signal ?? deps.shutdown);
}

/** The user's meeting changes (created, renamed, finished, deleted), until the client leaves or the server stops. */
export function feedMeetingChanges(
  deps: AppDeps,
  userId: string,
  signal: AbortSignal | undefined,
): LiveFeed<{ meetingId: string; kind: 'created' | 'updated' | 'finished' | 'deleted' }> {
  return new LiveFeed(async (deliver, stop, listening) => {
    const unlisten = deps.events.listen('meeting.changed', userId, (event) => deliver({ meetingId: event.meetingId, kind: event.kind }));
    listening();
    try {
      await untilAborted(AbortSignal.any([deps.shutdown, stop]));
    } finally {
      unlisten();
    }
  }, signal ?? deps.shutdown);
}
