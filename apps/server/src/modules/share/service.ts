import { randomBytes } from 'node:crypto';
import {
  ENCRYPTED_SHARE_REFUSAL,
  SHARE_TOKEN_BYTES,
  SHARE_TOKEN_PATTERN,
  UNTITLED_MEETING,
  shareUrl,
  uniqueParticipants,
  type ShareLink,
  type ShareStatus,
  type SharedLine,
  type SharedMeeting,
} from '@mbox/shared';
import { sanitizeSummaryHtml } from '../../ai/sanitize.js';
import { AppError } from '../../app-error.js';
import { publicOrigin } from '../../config.js';
import { epochMs, epochMsOf } from '../../db/json-sql.js';
import type { AppDeps } from '../../deps.js';
import { Prisma } from '../../generated/prisma/client.js';
import { sha256 } from '../auth/sessions.js';
import { meetingNotFound } from '../meeting/service.js';
import { readCitations } from '../summary/service.js';

/** What the database keeps of a token: its SHA-256, so a leaked database opens no meeting. */
const tokenHash = sha256;

/**
 * A new read-only link to the user's meeting: a fresh random token whose hash replaces the previous
 * one (that link stops working). One conditional statement: encryption locks the row and clears the
 * hash, so a meeting being encrypted is never left shared. An encrypted meeting is refused (412).
 */
export async function createShareLink(deps: AppDeps, userId: string, meetingId: string): Promise<ShareLink> {
  const token = randomBytes(SHARE_TOKEN_BYTES).toString('base64url');
  const { count } = await deps.db.meeting.updateMany({
    where: { id: meetingId, userId, encrypted: false },
    data: { shareTokenHash: tokenHash(token), sharedAt: new Date() },
  });
  if (!count) {
    const meeting = await deps.db.meeting.findFirst({ where: { id: meetingId, userId }, select: { encrypted: true } });
    if (!meeting) throw meetingNotFound();
    throw new AppError('PRECONDITION_FAILED', ENCRYPTED_SHARE_REFUSAL);
  }
  return { url: shareUrl(publicOrigin(deps.config), token) };
}

/** Stops sharing the user's meeting; stopping a meeting that is not shared changes nothing. */
export async function revokeShareLink(deps: AppDeps, userId: string, meetingId: string): Promise<{ success: true }> {
  const { count } = await deps.db.meeting.updateMany({
    where: { id: meetingId, userId },
    data: { shareTokenHash: null, sharedAt: null },
  });
  if (!count) throw meetingNotFound();
  return { success: true };
}

export async function getShareStatus(deps: AppDeps, userId: string, meetingId: string): Promise<ShareStatus> {
  const meeting = await deps.db.meeting.findFirst({
    where: { id: meetingId, userId },
    select: { shareTokenHash: true, sharedAt: true },
  });
  if (!meeting) throw meetingNotFound();
  const shared = meeting.shareTokenHash !== null;
  return { shared, sharedAt: shared ? (meeting.sharedAt?.getTime() ?? null) : null };
}

function linkNotFound(): AppError {
  return new AppError('NOT_FOUND', 'Shared meeting not found: the link is wrong or sharing was stopped');
}

interface SharedRow {
  title: string;
  startedAt: number | null;
  createdAt: number;
  finishedAt: number | null;
  users: string[];
  lines: SharedLine[];
  summaries: { title: string; html: string; citations: unknown }[];
}

/** The shared view of meeting `m` as one JSON object: named columns only (lines carry a tsvector). */
const SHARED_JSON = Prisma.raw(
  `json_build_object('title', m.title, 'startedAt', ${epochMs('m."startedAt"')}, ` +
    `'createdAt', ${epochMsOf('m."createdAt"')}, 'finishedAt', ${epochMs('m."finishedAt"')}, 'users', m.users, ` +
    `'lines', (SELECT coalesce(json_agg(json_build_object('speaker', c."user", 'text', c.text, 'spokenAt', ` +
    `coalesce(${epochMs('c."spokenAt"')}, ${epochMsOf('c."lastUpdated"')})) ORDER BY c."spokenAt", c.id), '[]') ` +
    `FROM "Message" c WHERE c."meetingId" = m.id AND NOT c.encrypted), ` +
    `'summaries', (SELECT coalesce(json_agg(json_build_object('title', s.title, 'html', s.text, 'citations', s.citations) ORDER BY s."createdAt", s.id), '[]') ` +
    `FROM "Summary" s WHERE s."meetingId" = m.id AND NOT s.encrypted AND s."customPrompt" = ''))`,
);

/**
 * The meeting a share link opens, as anyone may see it (sharedMeetingSchema), in one query. The token
 * is found by its hash through the unique index: nothing compares the secret itself. Lines and
 * summaries sealed with the owner's key (a line encrypted on its own) are left out, as are answers to
 * the owner's own questions. Summary HTML passes the sanitiser again: the page shows it as HTML.
 */
export async function viewSharedMeeting(deps: AppDeps, token: string): Promise<SharedMeeting> {
  if (!SHARE_TOKEN_PATTERN.test(token)) throw linkNotFound();
  const [found] = await deps.db.$queryRaw<{ meeting: string }[]>`
    SELECT ${SHARED_JSON}::text AS meeting FROM "Meeting" m
    WHERE m."shareTokenHash" = ${tokenHash(token)} AND NOT m.encrypted`;
  if (!found) throw linkNotFound();
  const row = JSON.parse(found.meeting) as SharedRow;
  return {
    title: row.title.trim() || UNTITLED_MEETING,
    date: row.startedAt ?? row.createdAt,
    finishedAt: row.finishedAt,
    participants: uniqueParticipants(row.users.length ? row.users : row.lines.map((line) => line.speaker)),
    lines: row.lines,
    summaries: row.summaries.map((summary) => ({
      title: summary.title,
      html: sanitizeSummaryHtml(summary.html),
      // Times only: message ids and speakers stay with the owner's view.
      citations: readCitations(summary.citations).map(({ n, spokenAt }) => ({ n, spokenAt })),
    })),
  };
}
