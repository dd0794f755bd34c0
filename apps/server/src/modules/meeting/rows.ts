import { MARKS, UNTITLED_MEETING, type Mark, type Message as MessageDto } from '@mbox/shared';
import { epochMs, epochMsOf, JS_TRIM_SQL } from '../../db/json-sql.js';
import { Prisma, type Message } from '../../generated/prisma/client.js';

/*
 * How the meeting reads write meeting and message rows out as JSON (PostgreSQL writes each answer as one
 * text, db/json-sql.ts), and read them back into the API's shapes.
 */

/**
 * Epoch ms of a time a client reported, or of a server-set fallback when the stored value cannot be read
 * back (year 10000+ comes out as an invalid date). Inputs are bounded now (timestampSchema), but rows stored
 * before must not break the list, or a transcript, forever.
 */
export function clientTime(time: Date, fallback: Date): number {
  return Number.isNaN(time.getTime()) ? fallback.getTime() : time.getTime();
}

export function optionalClientTime(time: Date | null): number | null {
  return time && !Number.isNaN(time.getTime()) ? time.getTime() : null;
}

/**
 * A meeting as the API shows it (meetingSchema), as the select list of the meeting row `m`: the title
 * trimmed, else 'Untitled meet'; `date` the start, else the creation. Participants are read as stored:
 * every write stores them trimmed and once each (uniqueParticipants; rows from before, by migration).
 * PostgreSQL writes such rows out as JSON objects (row_to_json) that need no reshaping: the grouped list
 * passes them on as text.
 */
export const MEETING_COLUMNS = Prisma.sql`m.id AS key,
  coalesce(nullif(btrim(m.title, ${Prisma.raw(JS_TRIM_SQL)}), ''), ${UNTITLED_MEETING}) AS title,
  m."meetCode" AS "meetCode",
  ${Prisma.raw(`coalesce(${epochMs('m."startedAt"')}, ${epochMsOf('m."createdAt"')})`)} AS date,
  ${Prisma.raw(epochMsOf('m."createdAt"'))} AS "createdAt",
  ${Prisma.raw(epochMs('m."finishedAt"'))} AS "finishedAt",
  coalesce(m.users, '{}') AS users,
  m.encrypted AS encrypted,
  m."isAnalyzed" AS "isAnalyzed"`;
/** The meeting row `m` as a JSON object of the API's shape. */
export const MEETING_JSON = Prisma.sql`(SELECT row_to_json(d) FROM (SELECT ${MEETING_COLUMNS}) d)`;

/** A message as the reads use it; meetingId and encrypted are what openMessages decrypts by. */
export interface MessageJson {
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
export const MESSAGE_JSON = Prisma.raw(
  `json_build_array(c.id, c."meetingId", c."captionId", c."user", c."userAvatar", c.text, c."aiFixed", c.marks, c.comment, ` +
    `c.encrypted, c.final, ${epochMs('c."spokenAt"')}, ${epochMsOf('c."lastUpdated"')})`,
);
/** The messages of a JSON array of MESSAGE_JSON rows. */
export function readMessages(json: string): MessageJson[] {
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
export function messageJsonDto(message: MessageJson): MessageDto {
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

/**
 * The meeting `m`'s line count: stored when it ended (markMeetingEnded), else counted, which reads
 * every line's index entry (a millisecond for 10,000 lines). COALESCE runs the count only when needed.
 */
export const LINE_COUNT = Prisma.sql`coalesce(m."lineCount", (SELECT count(*) FROM "Message" c WHERE c."meetingId" = m.id)::int)`;
