import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { CaptureEvent, IngestLinesInput, TranscriptLine } from '@mbox/shared';

/**
 * Durable outbox in IndexedDB: caption lines wait here until the server acknowledges them, across
 * service-worker restarts, server outages and sign-outs. Keyed by (sessionId, captionId), keeping only
 * the highest revision: Meet rewrites a line many times and only the latest text matters.
 * Capture gaps wait beside them, keyed by (sessionId, eventId), a closed report replacing an open one.
 * Batches the server refused for good are set aside with their items (kept, shown in the popup, retried or
 * discarded only when the user says so), so they neither block the queue nor get lost silently.
 */

export type IngestMeeting = IngestLinesInput['meeting'];

export interface QueuedLine {
  sessionId: string;
  captionId: string;
  line: TranscriptLine;
}

export interface QueuedEvent {
  sessionId: string;
  eventId: string;
  event: CaptureEvent;
}

export interface SessionRecord {
  sessionId: string;
  meeting: IngestMeeting;
  /** The Meet tab capturing this session; null once the tab is gone. */
  tabId: number | null;
  lastSeenAt: number;
  /** Set once the meeting ended; the end is sent after the session's last lines. */
  finishedAt: number | null;
  /** Caption ids the server acknowledged, so the popup can say how many lines reached it. */
  sentCaptionIds?: string[];
  /**
   * Why the server takes no more lines of this meeting (413: it reached its size bound); its lines then
   * wait here unsent until the user retries or discards them. Null or absent: lines are sent.
   */
  full?: string | null;
}

/** What a set-aside entry holds: exactly the request that was refused, so it can be sent again. */
export type SetAsideBatch =
  | { kind: 'lines'; meeting: IngestMeeting; lines: TranscriptLine[] }
  | { kind: 'events'; meeting: IngestMeeting; events: CaptureEvent[] }
  | { kind: 'end'; sessionId: string; finishedAt: number };

/** A batch refused for good (a 4xx other than 401/408/429, or invalid before sending). */
export interface SetAside {
  id?: number;
  sessionId: string;
  batch: SetAsideBatch;
  /** Why, as the popup shows it, e.g. "server refused (422: lines.0.text: too long)". */
  reason: string;
  at: number;
}

export interface RetryState {
  attempt: number;
  nextAt: number;
  lastError: string;
}

interface OutboxDb extends DBSchema {
  lines: { key: [string, string]; value: QueuedLine; indexes: { bySession: string } };
  sessions: { key: string; value: SessionRecord };
  meta: { key: string; value: RetryState | number };
  events: { key: [string, string]; value: QueuedEvent; indexes: { bySession: string } };
  setAside: { key: number; value: SetAside };
}

const RETRY_KEY = 'retry';
const LAST_SENT_KEY = 'lastSentAt';
/** Set-aside batches kept (at most 200 lines each); beyond this the oldest go, so storage stays bounded. */
const SET_ASIDE_KEPT = 200;

/** A later report of a gap replaces an earlier one: closed over open, the later end over an earlier. */
function isNewerReport(incoming: CaptureEvent, stored: CaptureEvent | undefined): boolean {
  return !stored || (incoming.endedAt ?? -1) > (stored.endedAt ?? -1);
}

export class Outbox {
  private constructor(private readonly db: IDBPDatabase<OutboxDb>) {}

  static async open(name = 'mbox-outbox'): Promise<Outbox> {
    const db = await openDB<OutboxDb>(name, 3, {
      upgrade(database, oldVersion, _newVersion, transaction) {
        if (oldVersion < 1) {
          const lines = database.createObjectStore('lines', { keyPath: ['sessionId', 'captionId'] });
          lines.createIndex('bySession', 'sessionId');
          database.createObjectStore('sessions', { keyPath: 'sessionId' });
          database.createObjectStore('meta');
        }
        if (oldVersion < 2) {
          const events = database.createObjectStore('events', { keyPath: ['sessionId', 'eventId'] });
          events.createIndex('bySession', 'sessionId');
          database.createObjectStore('setAside', { keyPath: 'id', autoIncrement: true });
        } else if (oldVersion < 3) {
          // Version 2 kept only a description of a refused batch, not its items: nothing to retry or show.
          void transaction.objectStore('setAside').clear();
        }
      },
    });
    return new Outbox(db);
  }

  close(): void {
    this.db.close();
  }

  /** Records the meeting facts and queues lines, keeping the highest revision per caption. */
  async putLines(meeting: IngestMeeting, lines: readonly TranscriptLine[], tabId: number | null, now: number): Promise<void> {
    const tx = this.db.transaction(['lines', 'sessions'], 'readwrite');
    const linesStore = tx.objectStore('lines');
    await this.upsertSession(tx.objectStore('sessions'), meeting, tabId, now);
    for (const line of lines) {
      const existing = await linesStore.get([meeting.sessionId, line.captionId]);
      if (existing && existing.line.revision >= line.revision) continue;
      await linesStore.put({ sessionId: meeting.sessionId, captionId: line.captionId, line });
    }
    await tx.done;
  }

  /** Keeps the session's meeting facts and liveness current without lines (nobody speaking). */
  async touchSession(meeting: IngestMeeting, tabId: number | null, now: number): Promise<void> {
    const tx = this.db.transaction('sessions', 'readwrite');
    await this.upsertSession(tx.objectStore('sessions'), meeting, tabId, now);
    await tx.done;
  }

  private async upsertSession(
    store: { get(key: string): Promise<SessionRecord | undefined>; put(value: SessionRecord): Promise<unknown> },
    meeting: IngestMeeting,
    tabId: number | null,
    now: number,
  ): Promise<void> {
    const existing = await store.get(meeting.sessionId);
    const merged: IngestMeeting = { ...existing?.meeting, ...meeting };
    // The first start time wins: a reloaded page reports the session's start again, maybe later.
    if (existing) merged.startedAt = Math.min(existing.meeting.startedAt, meeting.startedAt);
    await store.put({
      sessionId: meeting.sessionId,
      meeting: merged,
      tabId: tabId ?? existing?.tabId ?? null,
      lastSeenAt: now,
      finishedAt: existing?.finishedAt ?? null,
      sentCaptionIds: existing?.sentCaptionIds ?? [],
      full: existing?.full ?? null,
    });
  }

  /** Records the meeting facts and queues gap reports, keeping the latest report of each gap. */
  async putEvents(meeting: IngestMeeting, events: readonly CaptureEvent[], tabId: number | null, now: number): Promise<void> {
    const tx = this.db.transaction(['events', 'sessions'], 'readwrite');
    const store = tx.objectStore('events');
    await this.upsertSession(tx.objectStore('sessions'), meeting, tabId, now);
    for (const event of events) {
      const existing = await store.get([meeting.sessionId, event.eventId]);
      if (isNewerReport(event, existing?.event)) await store.put({ sessionId: meeting.sessionId, eventId: event.eventId, event });
    }
    await tx.done;
  }

  async eventsOf(sessionId: string, limit: number): Promise<CaptureEvent[]> {
    const queued = await this.db.getAllFromIndex('events', 'bySession', sessionId, limit);
    return queued.map((q) => q.event);
  }

  /** Deletes the sent reports unless a newer report of the same gap arrived meanwhile. */
  async ackEvents(sessionId: string, sent: readonly CaptureEvent[]): Promise<void> {
    const tx = this.db.transaction('events', 'readwrite');
    for (const event of sent) {
      const stored = await tx.store.get([sessionId, event.eventId]);
      if (stored && !isNewerReport(stored.event, event)) await tx.store.delete([sessionId, event.eventId]);
    }
    await tx.done;
  }

  async countEvents(): Promise<number> {
    return this.db.count('events');
  }

  /** Keeps a refused batch aside with its items (they have left the queue). */
  async setAside(entry: Omit<SetAside, 'id'>): Promise<void> {
    const tx = this.db.transaction('setAside', 'readwrite');
    await tx.store.add(entry as SetAside);
    const count = await tx.store.count();
    if (count > SET_ASIDE_KEPT) {
      let cursor = await tx.store.openCursor();
      for (let extra = count - SET_ASIDE_KEPT; cursor && extra > 0; extra -= 1) {
        await cursor.delete();
        cursor = await cursor.continue();
      }
    }
    await tx.done;
  }

  /** Oldest first. */
  async setAsides(): Promise<SetAside[]> {
    return this.db.getAll('setAside');
  }

  /** Refused again on a retry: the entry stays, with the new reason. */
  async updateSetAside(id: number, reason: string, at: number): Promise<void> {
    const tx = this.db.transaction('setAside', 'readwrite');
    const entry = await tx.store.get(id);
    if (entry) await tx.store.put({ ...entry, reason, at });
    await tx.done;
  }

  async removeSetAside(id: number): Promise<void> {
    await this.db.delete('setAside', id);
  }

  async clearSetAsides(): Promise<void> {
    await this.db.clear('setAside');
  }

  async lastSentAt(): Promise<number | null> {
    const value = await this.db.get('meta', LAST_SENT_KEY);
    return typeof value === 'number' ? value : null;
  }

  async setLastSentAt(at: number): Promise<void> {
    await this.db.put('meta', at, LAST_SENT_KEY);
  }

  /** Marks a session ended (first end wins); unknown sessions had no lines, so nothing is to be sent. */
  async markEnded(sessionId: string, finishedAt: number): Promise<boolean> {
    const tx = this.db.transaction('sessions', 'readwrite');
    const session = await tx.store.get(sessionId);
    if (session && session.finishedAt === null) await tx.store.put({ ...session, finishedAt });
    await tx.done;
    return session !== undefined;
  }

  /** The tab closed: every session it was capturing ends now. */
  async endSessionsOfTab(tabId: number, finishedAt: number): Promise<string[]> {
    const tx = this.db.transaction('sessions', 'readwrite');
    const ended: string[] = [];
    for (const session of await tx.store.getAll()) {
      if (session.tabId !== tabId || session.finishedAt !== null) continue;
      await tx.store.put({ ...session, tabId: null, finishedAt });
      ended.push(session.sessionId);
    }
    await tx.done;
    return ended;
  }

  async sessions(): Promise<SessionRecord[]> {
    return this.db.getAll('sessions');
  }

  async session(sessionId: string): Promise<SessionRecord | undefined> {
    return this.db.get('sessions', sessionId);
  }

  async linesOf(sessionId: string, limit: number): Promise<TranscriptLine[]> {
    const queued = await this.db.getAllFromIndex('lines', 'bySession', sessionId, limit);
    return queued.map((q) => q.line);
  }

  /**
   * Deletes the sent lines unless a newer revision arrived while the request was in flight. `delivered`
   * says whether the server took them (rather than refused them), for the session's count of sent lines.
   */
  async ack(sessionId: string, sent: readonly Pick<TranscriptLine, 'captionId' | 'revision'>[], delivered = true): Promise<void> {
    const tx = this.db.transaction(['lines', 'sessions'], 'readwrite');
    const lines = tx.objectStore('lines');
    for (const { captionId, revision } of sent) {
      const stored = await lines.get([sessionId, captionId]);
      if (stored && stored.line.revision <= revision) await lines.delete([sessionId, captionId]);
    }
    const session = delivered ? await tx.objectStore('sessions').get(sessionId) : undefined;
    if (session) {
      const ids = new Set(session.sentCaptionIds ?? []);
      for (const { captionId } of sent) ids.add(captionId);
      await tx.objectStore('sessions').put({ ...session, sentCaptionIds: [...ids] });
    }
    await tx.done;
  }

  /** Takes lines out of the queue whatever their revision (set aside unsent as invalid). */
  async removeLines(sessionId: string, captionIds: readonly string[]): Promise<void> {
    const tx = this.db.transaction('lines', 'readwrite');
    for (const captionId of captionIds) await tx.store.delete([sessionId, captionId]);
    await tx.done;
  }

  /** The server takes no more lines of the session's meeting: they stay queued, unsent (`reason` says why). */
  async markFull(sessionId: string, reason: string | null): Promise<void> {
    const tx = this.db.transaction('sessions', 'readwrite');
    const session = await tx.store.get(sessionId);
    if (session) await tx.store.put({ ...session, full: reason });
    await tx.done;
  }

  /** The user asked to retry: lines of full meetings are sent again (once; a new refusal holds them again). */
  async clearFull(): Promise<void> {
    const tx = this.db.transaction('sessions', 'readwrite');
    for (const session of await tx.store.getAll()) if (session.full) await tx.store.put({ ...session, full: null });
    await tx.done;
  }

  /** Lines waiting in sessions the server refused as full, and the latest reason. */
  async heldLines(): Promise<{ lines: number; reason: string | null }> {
    const held = { lines: 0, reason: null as string | null };
    for (const session of await this.sessions()) {
      const lines = session.full ? await this.countLines(session.sessionId) : 0;
      if (lines === 0) continue;
      held.lines += lines;
      held.reason = session.full ?? null;
    }
    return held;
  }

  /** The user discarded what the server refused: the held lines of full meetings go too. */
  async discardHeldLines(): Promise<void> {
    for (const session of await this.sessions()) {
      if (!session.full) continue;
      const tx = this.db.transaction('lines', 'readwrite');
      for (const key of await tx.store.index('bySession').getAllKeys(session.sessionId)) await tx.store.delete(key);
      await tx.done;
    }
  }

  /**
   * A full meeting ended: its held lines are set aside (in batches of `batchSize`), where Retry and
   * Discard still reach them once the session is gone.
   */
  async setAsideHeldLines(sessionId: string, batchSize: number, at: number): Promise<void> {
    const session = await this.session(sessionId);
    if (!session?.full) return;
    for (let lines = await this.linesOf(sessionId, batchSize); lines.length; lines = await this.linesOf(sessionId, batchSize)) {
      await this.setAside({ sessionId, batch: { kind: 'lines', meeting: session.meeting, lines }, reason: session.full, at });
      await this.removeLines(sessionId, lines.map((line) => line.captionId));
    }
  }

  async removeSession(sessionId: string): Promise<void> {
    const tx = this.db.transaction(['lines', 'events', 'sessions'], 'readwrite');
    const keys = await tx.objectStore('lines').index('bySession').getAllKeys(sessionId);
    for (const key of keys) await tx.objectStore('lines').delete(key);
    const eventKeys = await tx.objectStore('events').index('bySession').getAllKeys(sessionId);
    for (const key of eventKeys) await tx.objectStore('events').delete(key);
    await tx.objectStore('sessions').delete(sessionId);
    await tx.done;
  }

  async countLines(sessionId?: string): Promise<number> {
    return sessionId === undefined
      ? this.db.count('lines')
      : this.db.countFromIndex('lines', 'bySession', sessionId);
  }

  async retryState(): Promise<RetryState | undefined> {
    const value = await this.db.get('meta', RETRY_KEY);
    return typeof value === 'object' ? value : undefined;
  }

  async setRetryState(state: RetryState | null): Promise<void> {
    if (state) await this.db.put('meta', state, RETRY_KEY);
    else await this.db.delete('meta', RETRY_KEY);
  }
}
