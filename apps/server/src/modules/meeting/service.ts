import { TRPCError } from '@trpc/server';
import {
  UNTITLED_MEETING,
  groupByDay,
  markSchema,
  type Meeting as MeetingDto,
  type MeetingDetail,
  type MeetingGroups,
  type MeetingEvent as MeetingEventDto,
  type MeetingMessages,
  captureEventKindSchema,
  type Message as MessageDto,
  MESSAGE_CURSOR_PATTERN,
} from '@mbox/shared';
import { openMessages } from '../../crypto/encryption.js';
import type { AppDeps } from '../../deps.js';
import type { Meeting, Message } from '../../generated/prisma/client.js';

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

export function toMeetingDto(meeting: Meeting): MeetingDto {
  return {
    key: meeting.id,
    title: meeting.title.trim() || UNTITLED_MEETING,
    meetCode: meeting.meetCode,
    date: clientTime(meeting.startedAt, meeting.createdAt),
    createdAt: meeting.createdAt.getTime(),
    finishedAt: optionalClientTime(meeting.finishedAt),
    users: [...new Set(meeting.users.map((u) => u.trim()).filter(Boolean))],
    encrypted: meeting.encrypted,
    isAnalyzed: meeting.isAnalyzed,
  };
}

/** The API form of a message; give it a row whose texts openMessages has decrypted. */
export function toMessageDto(message: Message): MessageDto {
  return {
    key: message.id,
    captionId: message.captionId,
    user: message.user,
    userAvatar: message.userAvatar,
    text: message.text,
    aiFixed: message.aiFixed,
    marks: message.marks.filter((m) => markSchema.safeParse(m).success) as MessageDto['marks'],
    comment: message.comment,
    encrypted: message.encrypted,
    final: message.final,
    spokenAt: clientTime(message.spokenAt, message.lastUpdated),
    lastUpdated: message.lastUpdated.getTime(),
  };
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

/** Newest first. */
export async function listMeetings(
  deps: AppDeps,
  userId: string,
  page: { limit: number; offset: number },
): Promise<MeetingDto[]> {
  const meetings = await deps.db.meeting.findMany({
    where: { userId },
    orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
    take: page.limit,
    skip: page.offset,
  });
  return meetings.map(toMeetingDto);
}

/** The newest meetings grouped by day in the user's timezone (spec §7: grouped view). */
export async function listMeetingGroups(
  deps: AppDeps,
  user: { id: string; timezone: string },
  page: { limit: number; offset: number },
): Promise<MeetingGroups> {
  const meetings = await listMeetings(deps, user.id, page);
  const groups = groupByDay(meetings, (m) => m.date, user.timezone);
  return { groups: groups.map(({ day, label, items }) => ({ day, label, meetings: items })) };
}

const messageOrder = [{ spokenAt: 'asc' as const }, { id: 'asc' as const }];

export async function getMeeting(deps: AppDeps, userId: string, meetingId: string): Promise<MeetingDetail> {
  const meeting = await deps.db.meeting.findFirst({
    where: { id: meetingId, userId },
    include: { messages: { orderBy: messageOrder } },
  });
  if (!meeting) throw meetingNotFound();
  const messages = await openMessages(deps, userId, meeting.messages);
  return { meet: toMeetingDto(meeting), messages: messages.map(toMessageDto) };
}

/** Where a page starts, read from a cursor the schema has already checked. */
function parseCursor(cursor: string): { after: boolean; spokenAt: Date; id: string } {
  const [, side, ms, id] = MESSAGE_CURSOR_PATTERN.exec(cursor) ?? [];
  const spokenAt = new Date(Number(ms));
  if (!side || !id || Number.isNaN(spokenAt.getTime())) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'cursor: must be a cursor the server returned in next' });
  }
  return { after: side === 'after', spokenAt, id };
}

function cursorAt(side: 'after' | 'before', message: Message): string {
  return `${side}.${clientTime(message.spokenAt, message.lastUpdated)}.${message.id}`;
}

/**
 * One page of a meeting's lines in transcript order (spokenAt, then id), keyset-paged so page 20 of
 * a 10,000-line meeting costs what page 1 does (index on meetingId + spokenAt).
 * The opening page (no cursor) is where a reader starts: the top of a finished meeting, the bottom of
 * a live one, whose newer lines then arrive over meeting.onLines. `next` reads on away from it.
 */
export async function getMeetingMessages(
  deps: AppDeps,
  userId: string,
  input: { id: string; cursor?: string | undefined; limit: number },
): Promise<MeetingMessages> {
  const meeting = await findOwnMeeting(deps, userId, input.id);
  const cursor = input.cursor ? parseCursor(input.cursor) : null;
  const forward = cursor ? cursor.after : meeting.finishedAt !== null;
  const boundary = cursor
    ? cursor.after
      ? { OR: [{ spokenAt: { gt: cursor.spokenAt } }, { spokenAt: cursor.spokenAt, id: { gt: cursor.id } }] }
      : { OR: [{ spokenAt: { lt: cursor.spokenAt } }, { spokenAt: cursor.spokenAt, id: { lt: cursor.id } }] }
    : {};
  const direction = forward ? ('asc' as const) : ('desc' as const);
  const [rows, total] = await Promise.all([
    deps.db.message.findMany({
      where: { meetingId: meeting.id, ...boundary },
      orderBy: [{ spokenAt: direction }, { id: direction }],
      // One extra row tells whether another page follows.
      take: input.limit + 1,
    }),
    deps.db.message.count({ where: { meetingId: meeting.id } }),
  ]);
  const more = rows.length > input.limit;
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const next = more && last ? cursorAt(forward ? 'after' : 'before', last) : null;
  if (!forward) page.reverse();
  const messages = await openMessages(deps, userId, page);
  return { meet: toMeetingDto(meeting), messages: messages.map(toMessageDto), next, total };
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

/** Streams new and updated lines of one meeting until the client leaves or the server stops. */
export async function* watchLines(
  deps: AppDeps,
  userId: string,
  meetingId: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<MessageDto> {
  await findOwnMeeting(deps, userId, meetingId);
  const stop = AbortSignal.any([deps.shutdown, ...(signal ? [signal] : [])]);
  try {
    for await (const event of deps.events.subscribe('meeting.lines', stop)) {
      if (event.meetingId !== meetingId || event.userId !== userId) continue;
      const messages = await deps.db.message.findMany({
        where: { id: { in: event.messageIds }, meetingId },
        orderBy: messageOrder,
      });
      for (const message of await openMessages(deps, userId, messages)) yield toMessageDto(message);
    }
  } catch (error) {
    if (!stop.aborted) throw error;
  }
}

export async function* watchMeetings(
  deps: AppDeps,
  userId: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<{ meetingId: string; kind: 'created' | 'updated' | 'finished' | 'deleted' }> {
  const stop = AbortSignal.any([deps.shutdown, ...(signal ? [signal] : [])]);
  try {
    for await (const event of deps.events.subscribe('meeting.changed', stop)) {
      if (event.userId === userId) yield { meetingId: event.meetingId, kind: event.kind };
    }
  } catch (error) {
    if (!stop.aborted) throw error;
  }
}
