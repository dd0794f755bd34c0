import { createHash } from 'node:crypto';
import {
  uniqueParticipants,
  type ActionItem as ActionItemDto,
  type ActionItemFacets,
  type ActionItemFilter,
  type ActionItemMeeting,
  type ActionItemPage,
  type ActionItemPatch,
  type FromLastTime,
  type SummaryCitation,
} from '@mbox/shared';
import type { WebhookActionItem, WebhookEventData } from '@mbox/shared/webhooks';
import { readActionItems, type ActionPoint } from '../../ai/index.js';
import { AppError, invalidField } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';
import type { ActionItem, Prisma } from '../../generated/prisma/client.js';
import { findOwnMeeting } from '../meeting/service.js';
import { publicUrl } from '../recap/service.js';
import { generateSummary } from '../summary/generation.js';
import { enqueueWebhookEvent } from '../webhooks/events.js';
import { webhookMeetingRef } from '../webhooks/service.js';

/**
 * The action-item ledger (docs/action-items.md). Items are read from a meeting's Action Items when it
 * ends (`extractActionItems`, a job queued with the end); after that they are their owner's: edits
 * are never overwritten, and a meeting ended again adds only what is new. The list and update
 * functions take plain arguments, so other ways in (tRPC, REST, an MCP server) share them.
 */

const meetingSelect = { id: true, title: true, startedAt: true } as const satisfies Prisma.MeetingSelect;
const withMeeting = { meeting: { select: meetingSelect } } as const satisfies Prisma.ActionItemInclude;
type ItemRow = ActionItem & { meeting: { id: string; title: string; startedAt: Date } };

/** Meetings offered by the meeting filter, newest first. */
const FACET_MEETINGS = 200;
/** Earlier meetings looked through for "Open from last time", newest first. */
const LAST_TIME_CANDIDATES = 50;

function actionItemNotFound(): AppError {
  return new AppError('NOT_FOUND', 'Action item not found');
}

/** A due day (a DATE column reads as UTC midnight) as yyyy-MM-dd, and back. */
function dayOf(date: Date | null): string | null {
  return date ? date.toISOString().slice(0, 10) : null;
}
function dateOfDay(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

function toMeetingDto(meeting: { id: string; title: string; startedAt: Date }): ActionItemMeeting {
  return { id: meeting.id, title: meeting.title, startedAt: meeting.startedAt.getTime() };
}

export function toActionItemDto(row: ItemRow): ActionItemDto {
  return {
    id: row.id,
    meeting: toMeetingDto(row.meeting),
    text: row.text,
    owner: row.owner,
    due: dayOf(row.dueDate),
    status: row.status === 'done' ? 'done' : 'open',
    doneAt: row.doneAt?.getTime() ?? null,
    source: row.messageId && row.spokenAt ? { messageId: row.messageId, speaker: row.speaker, spokenAt: row.spokenAt.getTime() } : null,
    edited: row.editedAt !== null,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  };
}

function webhookActionItem(deps: AppDeps, row: ItemRow): WebhookActionItem {
  const source =
    row.messageId && row.spokenAt
      ? {
          messageId: row.messageId,
          speaker: row.speaker,
          spokenAt: row.spokenAt.toISOString(),
          url: `${publicUrl(deps)}/${encodeURIComponent(row.meetingId)}?line=${encodeURIComponent(row.messageId)}`,
        }
      : null;
  return { id: row.id, text: row.text, owner: row.owner, due: dayOf(row.dueDate), status: row.status === 'done' ? 'done' : 'open', source };
}

type Changed = WebhookEventData['action_item.updated']['changed'];

async function notifyUpdated(deps: AppDeps, tx: Prisma.TransactionClient, row: ItemRow, changed: Changed, by: 'user' | 'extraction') {
  await enqueueWebhookEvent(
    deps,
    row.userId,
    'action_item.updated',
    { meeting: webhookMeetingRef(deps, row.meeting), actionItem: webhookActionItem(deps, row), changed, by },
    { tx },
  );
}

/** Queues the extraction of an ended meeting's items, in the transaction that ends it. */
export async function queueActionItemExtraction(deps: AppDeps, tx: Prisma.TransactionClient, meetingId: string): Promise<void> {
  await deps.jobs.send('action-items-extract', { meetingId }, { tx });
}

/** An extracted item, ready to store. */
interface Extracted {
  sourceKey: string;
  position: number;
  text: string;
  owner: string;
  dueDate: Date | null;
  messageId: string | null;
  speaker: string;
  spokenAt: Date | null;
}

/**
 * Which point an item was read from, stable across extractions of the same meeting: the first line
 * it cites (the same task is read from the same line however it is worded), else its words.
 */
function sourceKeysOf(points: readonly ActionPoint[], cited: readonly (SummaryCitation | undefined)[]): string[] {
  const seen = new Map<string, number>();
  return points.map((point, i) => {
    const line = cited[i];
    const base = line
      ? `line:${line.messageId}`
      : `text:${createHash('sha256').update(`${point.owner.toLowerCase()}\n${point.text.toLowerCase()}`).digest('hex').slice(0, 32)}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    // Two tasks read from one line are two items.
    return count === 1 ? base : `${base}#${count}`;
  });
}

function extractedItems(points: readonly ActionPoint[], citations: readonly SummaryCitation[]): Extracted[] {
  const byNumber = new Map(citations.map((c) => [c.n, c]));
  const cited = points.map((point) => point.citations.map((n) => byNumber.get(n)).find((c) => c !== undefined));
  const keys = sourceKeysOf(points, cited);
  return points.map((point, position) => {
    const line = cited[position];
    return {
      sourceKey: keys[position]!,
      position,
      text: point.text,
      owner: point.owner,
      dueDate: point.due ? dateOfDay(point.due) : null,
      messageId: line?.messageId ?? null,
      speaker: line?.speaker ?? '',
      spokenAt: line ? new Date(line.spokenAt) : null,
    };
  });
}

export interface ExtractionResult {
  created: number;
  /** Items read again with other words, owner or due day (never ones their owner edited). */
  updated: number;
  /** Items found unchanged, or edited by their owner and left as they are. */
  kept: number;
}

/**
 * Stores what an extraction found: new points become items (`action_item.created`); a point read
 * before refreshes its item unless its owner edited it (`action_item.updated`). Items the new answer
 * no longer lists stay: they may be done or referred to already.
 */
async function storeExtracted(
  deps: AppDeps,
  meeting: { id: string; userId: string; startedAt: Date },
  items: readonly Extracted[],
): Promise<ExtractionResult> {
  return deps.db.$transaction(async (tx) => {
    const result: ExtractionResult = { created: 0, updated: 0, kept: 0 };
    // Two extractions of one meeting (ended twice in a row) take turns here; a deletion waits too.
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Meeting" WHERE id = ${meeting.id} FOR UPDATE`;
    if (locked.length === 0) return result;
    const existing = new Map((await tx.actionItem.findMany({ where: { meetingId: meeting.id } })).map((row) => [row.sourceKey, row]));
    for (const item of items) {
      const row = existing.get(item.sourceKey);
      if (!row) {
        const created = await tx.actionItem.create({
          data: { ...item, userId: meeting.userId, meetingId: meeting.id, meetingStartedAt: meeting.startedAt },
          include: withMeeting,
        });
        await enqueueWebhookEvent(
          deps,
          meeting.userId,
          'action_item.created',
          { meeting: webhookMeetingRef(deps, created.meeting), actionItem: webhookActionItem(deps, created) },
          { tx },
        );
        result.created++;
        continue;
      }
      const changed: Changed = [];
      if (!row.editedAt) {
        if (row.text !== item.text) changed.push('text');
        if (row.owner !== item.owner) changed.push('owner');
        if (dayOf(row.dueDate) !== dayOf(item.dueDate)) changed.push('due');
      }
      if (changed.length === 0) {
        if (row.position !== item.position) await tx.actionItem.update({ where: { id: row.id }, data: { position: item.position } });
        result.kept++;
        continue;
      }
      const updated = await tx.actionItem.update({
        where: { id: row.id },
        data: { text: item.text, owner: item.owner, dueDate: item.dueDate, position: item.position },
        include: withMeeting,
      });
      await notifyUpdated(deps, tx, updated, changed, 'extraction');
      result.updated++;
    }
    return result;
  });
}

/**
 * The action-items job: the meeting's Action Items from the AI engine (the stored answer when nothing
 * was said since, else a new one, stored like one asked for in the app), read into items.
 * Null when nothing was extracted: the meeting is gone or open again (its next end queues another
 * job), it is encrypted (its text is never stored in clear), or the engine refused (too short to
 * summarise, daily limit); a failure worth retrying throws.
 */
export async function extractActionItems(deps: AppDeps, meetingId: string): Promise<ExtractionResult | null> {
  const meeting = await deps.db.meeting.findUnique({
    where: { id: meetingId },
    select: {
      id: true,
      userId: true,
      startedAt: true,
      endedAt: true,
      encrypted: true,
      user: { select: { id: true, email: true, name: true, avatarUrl: true, isPremium: true, premiumUntil: true, timezone: true } },
    },
  });
  if (!meeting?.endedAt || meeting.encrypted) return null;
  let answer;
  try {
    // Not one of the day's generations (the user asked for none), but its LLM tokens count.
    answer = await generateSummary(deps, { ...meeting.user, via: 'session' }, { meetKey: meeting.id, promptKey: 'action' }, { counter: 'none' });
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    deps.log.info({ meetingId, reason: error.message }, 'action items not extracted');
    return null;
  }
  // Some of its lines are sealed: the items would hold their words in clear.
  if (answer.encrypted) return null;
  const points = await readActionItems(answer.text, { start: meeting.startedAt.getTime(), timeZone: meeting.user.timezone });
  const result = await storeExtracted(deps, meeting, extractedItems(points, answer.citations));
  deps.log.info({ meetingId, ...result }, 'action items extracted');
  return result;
}

/** A list filter as callers give it: the page size may be left to the default. */
export type ActionItemQuery = Omit<ActionItemFilter, 'limit'> & { limit?: number };

const LIST_ORDER = [
  { meetingStartedAt: 'desc' },
  { meetingId: 'desc' },
  { position: 'asc' },
  { id: 'asc' },
] as const satisfies Prisma.ActionItemOrderByWithRelationInput[];

/** The rows after `cursor` in LIST_ORDER. */
function after(cursor: Pick<ActionItem, 'id' | 'meetingStartedAt' | 'meetingId' | 'position'>): Prisma.ActionItemWhereInput {
  const { meetingStartedAt, meetingId, position, id } = cursor;
  return {
    OR: [
      { meetingStartedAt: { lt: meetingStartedAt } },
      { meetingStartedAt, meetingId: { lt: meetingId } },
      { meetingStartedAt, meetingId, position: { gt: position } },
      { meetingStartedAt, meetingId, position, id: { gt: id } },
    ],
  };
}

/**
 * A page of the user's action items across meetings, newest meeting first and each meeting's in the
 * order it listed them; every filter given must hold.
 */
export async function listActionItems(deps: AppDeps, userId: string, filter: ActionItemQuery): Promise<ActionItemPage> {
  const limit = filter.limit ?? 50;
  const where: Prisma.ActionItemWhereInput = {
    userId,
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.meetingId ? { meetingId: filter.meetingId } : {}),
    ...(filter.owner ? { owner: { equals: filter.owner, mode: 'insensitive' } } : {}),
    ...(filter.dueFrom || filter.dueTo
      ? { dueDate: { ...(filter.dueFrom ? { gte: dateOfDay(filter.dueFrom) } : {}), ...(filter.dueTo ? { lte: dateOfDay(filter.dueTo) } : {}) } }
      : {}),
  };
  let page = where;
  if (filter.cursor) {
    const cursor = await deps.db.actionItem.findFirst({
      where: { id: filter.cursor, userId },
      select: { id: true, meetingStartedAt: true, meetingId: true, position: true },
    });
    if (!cursor) throw invalidField('cursor', 'is not a cursor of this list: pass nextCursor as the previous page returned it');
    page = { AND: [where, after(cursor)] };
  }
  const rows = await deps.db.actionItem.findMany({ where: page, orderBy: [...LIST_ORDER], take: limit + 1, include: withMeeting });
  const items = rows.slice(0, limit);
  return { items: items.map(toActionItemDto), nextCursor: rows.length > limit ? items.at(-1)!.id : null };
}

/** Every item of the user, in the list's order: the account export's `action-items.json`. */
export async function allActionItems(deps: AppDeps, userId: string): Promise<ActionItemDto[]> {
  const rows = await deps.db.actionItem.findMany({ where: { userId }, orderBy: [...LIST_ORDER], include: withMeeting });
  return rows.map(toActionItemDto);
}

/** One of the user's items; another user's is "not found", like a missing one. */
export async function getActionItem(deps: AppDeps, userId: string, id: string): Promise<ActionItemDto> {
  const row = await deps.db.actionItem.findFirst({ where: { id, userId }, include: withMeeting });
  if (!row) throw actionItemNotFound();
  return toActionItemDto(row);
}

/**
 * Changes an item's text, owner, due day (null clears it) or status, and sends `action_item.updated`
 * when something changed. A change of text, owner or due day marks it edited: re-extraction leaves it.
 */
export async function updateActionItem(deps: AppDeps, userId: string, id: string, patch: ActionItemPatch): Promise<ActionItemDto> {
  return deps.db.$transaction(async (tx) => {
    // Row lock: two changes at once each see what the other wrote, so `changed` is exact.
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "ActionItem" WHERE id = ${id} AND "userId" = ${userId} FOR UPDATE`;
    const current = locked.length ? await tx.actionItem.findUnique({ where: { id }, include: withMeeting }) : null;
    if (!current) throw actionItemNotFound();
    const changed: Changed = [];
    const data: Prisma.ActionItemUpdateInput = {};
    if (patch.text !== undefined && patch.text !== current.text) {
      changed.push('text');
      data.text = patch.text;
    }
    if (patch.owner !== undefined && patch.owner !== current.owner) {
      changed.push('owner');
      data.owner = patch.owner;
    }
    if (patch.due !== undefined && patch.due !== dayOf(current.dueDate)) {
      changed.push('due');
      data.dueDate = patch.due === null ? null : dateOfDay(patch.due);
    }
    if (patch.status !== undefined && patch.status !== current.status) {
      changed.push('status');
      data.status = patch.status;
      data.doneAt = patch.status === 'done' ? new Date() : null;
    }
    if (changed.length === 0) return toActionItemDto(current);
    if (changed.some((field) => field !== 'status')) data.editedAt = new Date();
    const row = await tx.actionItem.update({ where: { id }, data, include: withMeeting });
    await notifyUpdated(deps, tx, row, changed, 'user');
    return toActionItemDto(row);
  });
}

/** Marks an item done, or open again. */
export async function markActionItemDone(deps: AppDeps, userId: string, id: string, done: boolean): Promise<ActionItemDto> {
  return updateActionItem(deps, userId, id, { status: done ? 'done' : 'open' });
}

/** The owners and meetings the user's items have: what the ledger's filters offer. */
export async function actionItemFacets(deps: AppDeps, userId: string): Promise<ActionItemFacets> {
  const [owners, meetings] = await Promise.all([
    deps.db.actionItem.groupBy({ by: ['owner'], where: { userId }, orderBy: { owner: 'asc' } }),
    deps.db.meeting.findMany({
      where: { userId, actionItems: { some: {} } },
      select: meetingSelect,
      orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
      take: FACET_MEETINGS,
    }),
  ]);
  return { owners: owners.map((o) => o.owner), meetings: meetings.map(toMeetingDto) };
}

/** Participants as a set to compare: names once each, letter case aside. */
function participantSet(users: readonly string[]): Set<string> {
  return new Set(uniqueParticipants(users).map((name) => name.toLowerCase()));
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((name) => b.has(name));
}

/**
 * "Open from last time": the latest of the user's meetings before this one with the same Meet code,
 * or the same participants (two or more), that has action items, and its items still open. The
 * meeting is the user's (404 otherwise).
 */
export async function openItemsFromLastTime(deps: AppDeps, userId: string, meetingId: string): Promise<FromLastTime> {
  const meeting = await findOwnMeeting(deps, userId, meetingId);
  const code = meeting.meetCode.trim();
  const people = participantSet(meeting.users);
  const byPeople = people.size >= 2;
  if (!code && !byPeople) return { meeting: null, items: [] };
  const candidates = await deps.db.meeting.findMany({
    where: {
      userId,
      id: { not: meeting.id },
      startedAt: { lt: meeting.startedAt },
      actionItems: { some: {} },
      OR: [...(code ? [{ meetCode: code }] : []), ...(byPeople ? [{ users: { hasSome: uniqueParticipants(meeting.users) } }] : [])],
    },
    select: { ...meetingSelect, meetCode: true, users: true },
    orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
    take: LAST_TIME_CANDIDATES,
  });
  const earlier = candidates.find((c) => (code && c.meetCode === code) || (byPeople && sameSet(participantSet(c.users), people)));
  if (!earlier) return { meeting: null, items: [] };
  const items = await deps.db.actionItem.findMany({
    where: { userId, meetingId: earlier.id, status: 'open' },
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
    include: withMeeting,
  });
  return { meeting: toMeetingDto(earlier), items: items.map(toActionItemDto) };
}
