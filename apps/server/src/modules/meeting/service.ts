import {
  groupByDay,
  type Meeting as MeetingDto,
  type MeetingGroups,
  type MeetingEvent as MeetingEventDto,
  type MeetingMessages,
  captureEventKindSchema,
  MESSAGE_CURSOR_PATTERN,
} from '@mbox/shared';
import { AppError } from '../../app-error.js';
import { openMessages } from '../../crypto/encryption.js';
import { hotRows } from '../../db/hot-rows.js';
import type { AppDeps } from '../../deps.js';
import { Prisma, type Meeting } from '../../generated/prisma/client.js';
import { clientTime, LINE_COUNT, MEETING_COLUMNS, MEETING_JSON, MESSAGE_JSON, messageJsonDto, optionalClientTime, readMessages } from './rows.js';


export function meetingNotFound(): AppError {
  return new AppError('NOT_FOUND', 'Meeting not found');
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

export const messageOrder = [{ spokenAt: 'asc' as const }, { id: 'asc' as const }];


/** Where a page starts, read from a cursor the schema has already checked. */
function parseCursor(cursor: string): { after: boolean; spokenAt: Date; id: string } {
  const [, side, ms, id] = MESSAGE_CURSOR_PATTERN.exec(cursor) ?? [];
  const spokenAt = new Date(Number(ms));
  if (!side || !id || Number.isNaN(spokenAt.getTime())) {
    throw new AppError('BAD_REQUEST', 'cursor: must be a cursor the server returned in next');
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
 * a live one, whose newer lines then arrive over meeting.onLines; `fromStart` opens every meeting at
 * its top (readers that read a transcript through, such as an assistant). `next` reads on away from it.
 */
export async function getMeetingMessages(
  deps: AppDeps,
  userId: string,
  input: { id: string; cursor?: string | undefined; around?: string | undefined; limit: number; fromStart?: boolean },
): Promise<MeetingMessages> {
  if (input.around) return getMessagesAround(deps, userId, { id: input.id, around: input.around, limit: input.limit });
  const cursor = input.cursor ? parseCursor(input.cursor) : null;
  // One extra row tells whether another page follows.
  const read = (forward: boolean) => pageQuery(forward, cursor, input.limit + 1);
  const page = cursor
    ? read(cursor.after)
    : input.fromStart
      ? read(true)
      : Prisma.sql`CASE WHEN m."finishedAt" IS NOT NULL THEN ${read(true)} ELSE ${read(false)} END`;
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
  const forward = cursor ? cursor.after : input.fromStart === true || found.finished;
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
    throw new AppError('NOT_FOUND', 'around: no such line in this meeting');
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
