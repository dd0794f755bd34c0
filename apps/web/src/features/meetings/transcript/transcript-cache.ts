import type { Meeting, MeetingMessages, Message } from '@mbox/shared/meeting';
import { mergeLines } from '../merge-lines';

/** Fields a reader edits on a line; the server stores them, the transcript shows them at once. */
export type EditableFields = Partial<Pick<Message, 'marks' | 'comment'>>;

interface PendingEdit {
  /** Id of the newest edit of this line still in flight. */
  token: number;
  /** What the reader asked for, shown over any copy of the line that arrives meanwhile. */
  fields: EditableFields;
  /** The values the server last confirmed, restored when the newest edit fails. */
  base: EditableFields;
}

/** The whole client-side transcript of one meeting: loaded pages, live lines and edits in flight. */
export interface TranscriptCache {
  meet: Meeting;
  /** In transcript order (spokenAt, then key). */
  messages: Message[];
  total: number;
  /** Cursor of the next page to read in the background, null when every page is in. */
  next: string | null;
  pending: Record<string, PendingEdit>;
}

export function cacheFromPage(page: MeetingMessages): TranscriptCache {
  return { meet: page.meet, messages: page.messages, total: page.total, next: page.next, pending: {} };
}

function withPending(line: Message, pending: PendingEdit | undefined): Message {
  return pending ? { ...line, ...pending.fields } : line;
}

/**
 * Merges lines from any source (a page, a refetched opening page, a live line, a mutation's answer).
 * A line whose edit is still in flight keeps the edit: a caption rewrite streamed meanwhile carries
 * the server's older marks and comment, and must not wipe what the reader just did.
 */
export function mergeIntoCache(cache: TranscriptCache, lines: readonly Message[]): TranscriptCache {
  if (lines.length === 0) return cache;
  const incoming = lines.map((line) => withPending(line, cache.pending[line.key]));
  return { ...cache, messages: mergeLines(cache.messages, incoming) };
}

/** The opening page read again (after a reconnect): its lines merge in, the background reading carries on. */
export function mergeOpeningPage(cache: TranscriptCache, page: MeetingMessages): TranscriptCache {
  return { ...mergeIntoCache(cache, page.messages), meet: page.meet, total: Math.max(page.total, cache.total) };
}

/** The next background page, merged; `next` moves on. */
export function mergeNextPage(cache: TranscriptCache, page: MeetingMessages): TranscriptCache {
  return { ...mergeIntoCache(cache, page.messages), next: page.next };
}

function mapLine(messages: Message[], key: string, change: (line: Message) => Message): Message[] {
  const index = messages.findIndex((m) => m.key === key);
  if (index < 0) return messages;
  const copy = messages.slice();
  copy[index] = change(copy[index]!);
  return copy;
}

function pick(line: Message, fields: EditableFields): EditableFields {
  const picked: EditableFields = {};
  if ('marks' in fields) picked.marks = line.marks;
  if ('comment' in fields) picked.comment = line.comment;
  return picked;
}

/** Shows an edit before the server confirms it (product.md, States: optimistically, then saved). */
export function applyEdit(cache: TranscriptCache, key: string, fields: EditableFields, token: number): TranscriptCache {
  const line = cache.messages.find((m) => m.key === key);
  if (!line) return cache;
  const previous = cache.pending[key];
  const base = { ...pick(line, fields), ...previous?.base };
  return {
    ...cache,
    pending: { ...cache.pending, [key]: { token, fields: { ...previous?.fields, ...fields }, base } },
    messages: mapLine(cache.messages, key, (m) => ({ ...m, ...fields })),
  };
}

function withoutPending(pending: TranscriptCache['pending'], key: string): TranscriptCache['pending'] {
  const rest = { ...pending };
  delete rest[key];
  return rest;
}

/** The server stored an edit: its copy of the line is the truth, unless a newer edit is in flight. */
export function confirmEdit(cache: TranscriptCache, key: string, token: number, saved: Message): TranscriptCache {
  const pending = cache.pending[key];
  if (pending && pending.token !== token) {
    const base = { ...pending.base, ...pick(saved, pending.base) };
    return mergeIntoCache({ ...cache, pending: { ...cache.pending, [key]: { ...pending, base } } }, [saved]);
  }
  const settled = { ...cache, pending: withoutPending(cache.pending, key) };
  return { ...settled, messages: mergeLines(settled.messages, [saved]) };
}

/** The newest edit of a line failed: the line goes back to what the server last confirmed. */
export function rollbackEdit(cache: TranscriptCache, key: string, token: number): TranscriptCache {
  const pending = cache.pending[key];
  if (!pending || pending.token !== token) return cache;
  return {
    ...cache,
    pending: withoutPending(cache.pending, key),
    messages: mapLine(cache.messages, key, (m) => ({ ...m, ...pending.base })),
  };
}
