import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { IngestLinesInput, TranscriptLine } from '@mbox/shared';

/**
 * Durable outbox in IndexedDB: caption lines wait here until the server acknowledges them, across
 * service-worker restarts, server outages and sign-outs. Keyed by (sessionId, captionId), keeping only
 * the highest revision: Meet rewrites a line many times and only the latest text matters.
 */

export type IngestMeeting = IngestLinesInput['meeting'];

export interface QueuedLine {
  sessionId: string;
  captionId: string;
  line: TranscriptLine;
}

export interface SessionRecord {
  sessionId: string;
  meeting: IngestMeeting;
  /** The Meet tab capturing this session; null once the tab is gone. */
  tabId: number | null;
  lastSeenAt: number;
  /** Set once the meeting ended; the end is sent after the session's last lines. */
  finishedAt: number | null;
}

export interface RetryState {
  attempt: number;
  nextAt: number;
  lastError: string;
}

interface OutboxDb extends DBSchema {
  lines: { key: [string, string]; value: QueuedLine; indexes: { bySession: string } };
  sessions: { key: string; value: SessionRecord };
  meta: { key: string; value: RetryState };
}

const RETRY_KEY = 'retry';

export class Outbox {
  private constructor(private readonly db: IDBPDatabase<OutboxDb>) {}

  static async open(name = 'mbox-outbox'): Promise<Outbox> {
    const db = await openDB<OutboxDb>(name, 1, {
      upgrade(database) {
        const lines = database.createObjectStore('lines', { keyPath: ['sessionId', 'captionId'] });
        lines.createIndex('bySession', 'sessionId');
        database.createObjectStore('sessions', { keyPath: 'sessionId' });
        database.createObjectStore('meta');
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
    });
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

  /** Deletes the sent lines unless a newer revision arrived while the request was in flight. */
  async ack(sessionId: string, sent: readonly Pick<TranscriptLine, 'captionId' | 'revision'>[]): Promise<void> {
    const tx = this.db.transaction('lines', 'readwrite');
    for (const { captionId, revision } of sent) {
      const stored = await tx.store.get([sessionId, captionId]);
      if (stored && stored.line.revision <= revision) await tx.store.delete([sessionId, captionId]);
    }
    await tx.done;
  }

  async removeSession(sessionId: string): Promise<void> {
    const tx = this.db.transaction(['lines', 'sessions'], 'readwrite');
    const keys = await tx.objectStore('lines').index('bySession').getAllKeys(sessionId);
    for (const key of keys) await tx.objectStore('lines').delete(key);
    await tx.objectStore('sessions').delete(sessionId);
    await tx.done;
  }

  async countLines(sessionId?: string): Promise<number> {
    return sessionId === undefined
      ? this.db.count('lines')
      : this.db.countFromIndex('lines', 'bySession', sessionId);
  }

  async retryState(): Promise<RetryState | undefined> {
    return this.db.get('meta', RETRY_KEY);
  }

  async setRetryState(state: RetryState | null): Promise<void> {
    if (state) await this.db.put('meta', state, RETRY_KEY);
    else await this.db.delete('meta', RETRY_KEY);
  }
}
