import {
  MAX_EVENTS_PER_BATCH,
  captureEventSchema,
  endMeetingOutputSchema,
  ingestEventsInputSchema,
  ingestEventsOutputSchema,
  ingestLinesInputSchema,
  ingestLinesOutputSchema,
  transcriptLineSchema,
} from '@mbox/shared';
import type { Account } from '../messages.js';
import type { IngestMeeting, Outbox, SetAsideBatch } from './outbox.js';

/**
 * Drains the outbox to the server. Per session: lines, then capture gaps, and the end only after its
 * last line and gap were acknowledged. How an answer is taken (docs/security.md, "Extension bridge and outbox"):
 * - 2xx with the expected body: delivered; the backoff resets.
 * - 401: the token is invalid or expired; sending stops until a new sign-in (the outbox is kept).
 * - 408, 429, 5xx, network errors, a 2xx that is not our answer: transient; everything is kept and
 *   retried after a capped exponential backoff with jitter (Retry-After honoured on 429/503).
 * - 413 to lines: the meeting reached its size bound (docs/security.md, "Meeting size"). The session is
 *   marked full with the server's message: its lines stay queued, unsent (not one request per new line),
 *   shown in the popup until the user retries or discards them; its gaps and end still go out, and when
 *   it ends its held lines are set aside.
 * - Any other 4xx (400, 403, 404, 413, 422, ...): the server will answer the same again. The batch is set
 *   aside with its items (kept, shown in the popup, sent again or discarded only when the user says so),
 *   so it cannot block the batches behind it. Items that fail the shared schema are set aside unsent.
 */

export const BATCH_SIZE = 200;
export const BACKOFF_BASE_MS = 2000;
export const BACKOFF_MAX_MS = 5 * 60_000;
/** Statuses that say "try again later" rather than "never". */
const TRANSIENT_4XX = new Set([408, 429]);

export type FlushResult =
  | { status: 'done' }
  | { status: 'signed-out' }
  | { status: 'retry'; retryAt: number; error: string };

export interface RetrySetAsidesResult {
  /** Batches the server took this time (they left the set-aside list). */
  delivered: number;
  /** Batches refused again (they stay, with the new reason). */
  refused: number;
  /** Why the retry stopped early (signed out, server unreachable); the rest stay set aside. */
  error: string | null;
}

export interface SenderDeps {
  outbox: Outbox;
  fetch: typeof fetch;
  getAccount: () => Promise<Account | null>;
  /** The server refused the token (401). */
  rejectAccount: () => Promise<void>;
  now: () => number;
  /** Jitter source in [0, 1); Math.random in the extension. */
  random?: () => number;
  log?: (message: string) => void;
}

type Outcome = 'ok' | 'unauthorized' | { refused: string; status?: number } | { retry: string; afterMs?: number };

/**
 * Delay before retry number `attempt` (1, 2, ...): doubling from 2 s up to 5 min, with "equal jitter"
 * (half fixed, half random) so many extensions do not return in step after an outage. Never under 1 s.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, Math.min(attempt, 30) - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** A Retry-After header (seconds or an HTTP date) as a delay, kept within 1 s … the backoff cap. */
export function retryAfterDelay(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = /^\s*\d+\s*$/.test(header) ? Number(header) * 1000 : Date.parse(header) - now;
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(BACKOFF_MAX_MS, Math.max(1000, seconds));
}

/** Fits the meeting facts to the ingest schema so a long title or odd participant name cannot block a batch. */
export function sanitizeMeeting(meeting: IngestMeeting): IngestMeeting {
  const clean: IngestMeeting = { sessionId: meeting.sessionId, meetCode: meeting.meetCode, startedAt: meeting.startedAt };
  const title = meeting.title?.trim().slice(0, 500);
  if (title) clean.title = title;
  const participants = [...new Set((meeting.participants ?? []).map((p) => p.trim().slice(0, 200)).filter(Boolean))];
  if (participants.length > 0) clean.participants = participants.slice(0, 500);
  return clean;
}

/** Splits items into those the schema accepts and those it refuses, with the first refusal's message. */
function partition<T>(items: readonly T[], schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } } }) {
  const valid: T[] = [];
  const invalid: T[] = [];
  let issue = '';
  for (const item of items) {
    const parsed = schema.safeParse(item);
    if (parsed.success) valid.push(item);
    else {
      invalid.push(item);
      issue ||= parsed.error?.issues[0]?.message ?? 'rejected';
    }
  }
  return { valid, invalid, issue };
}

export class Sender {
  private running: Promise<FlushResult> | null = null;
  private rerun = false;

  constructor(private readonly deps: SenderDeps) {}

  /**
   * Sends everything that can be sent now. Concurrent calls share one run, and a call arriving during
   * a run makes it go round once more so lines queued meanwhile are not left waiting for the next event.
   * `force` ignores the backoff (the user asked, or a new sign-in happened).
   */
  flush(force = false): Promise<FlushResult> {
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    this.running = (async () => {
      let result: FlushResult;
      let forced = force;
      do {
        this.rerun = false;
        result = await this.flushOnce(forced);
        forced = false;
      } while (this.rerun && result.status === 'done');
      return result;
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async flushOnce(force: boolean): Promise<FlushResult> {
    const { outbox, now } = this.deps;
    const retry = await outbox.retryState();
    if (retry && !force && retry.nextAt > now()) {
      return { status: 'retry', retryAt: retry.nextAt, error: retry.lastError };
    }
    const account = await this.deps.getAccount();
    if (!account || account.rejected) return { status: 'signed-out' };

    for (const session of await outbox.sessions()) {
      const { sessionId, meeting } = session;
      for (let full = Boolean(session.full); !full; ) {
        const lines = await outbox.linesOf(sessionId, BATCH_SIZE);
        if (lines.length === 0) break;
        const { valid, invalid, issue } = partition(lines, transcriptLineSchema);
        if (invalid.length > 0) {
          this.deps.log?.(`setting aside ${invalid.length} invalid line(s) of ${sessionId}: ${issue}`);
          await outbox.removeLines(sessionId, invalid.map((line) => line.captionId));
          await outbox.setAside({ sessionId, batch: { kind: 'lines', meeting, lines: invalid }, reason: `invalid line: ${issue}`, at: now() });
        }
        if (valid.length === 0) continue;
        const batch = { kind: 'lines', meeting, lines: valid } as const;
        const outcome = await this.send(account, batch);
        if (typeof outcome === 'object' && 'refused' in outcome && outcome.status === 413) {
          this.deps.log?.(`the server takes no more lines of ${sessionId}: holding them`);
          await outbox.markFull(sessionId, outcome.refused);
          full = true;
          continue;
        }
        const stop = await this.settle(outcome, async (refused) => {
          await outbox.ack(sessionId, valid, refused === null);
          if (refused !== null) await outbox.setAside({ sessionId, batch, reason: refused, at: now() });
        });
        if (stop) return stop;
      }
      for (;;) {
        const events = await outbox.eventsOf(sessionId, MAX_EVENTS_PER_BATCH);
        if (events.length === 0) break;
        const { valid, invalid, issue } = partition(events, captureEventSchema);
        if (invalid.length > 0) {
          await outbox.ackEvents(sessionId, invalid);
          await outbox.setAside({ sessionId, batch: { kind: 'events', meeting, events: invalid }, reason: `invalid gap report: ${issue}`, at: now() });
        }
        if (valid.length === 0) continue;
        const batch = { kind: 'events', meeting, events: valid } as const;
        const stop = await this.settle(await this.send(account, batch), async (refused) => {
          await outbox.ackEvents(sessionId, valid);
          if (refused !== null) await outbox.setAside({ sessionId, batch, reason: refused, at: now() });
        });
        if (stop) return stop;
      }
      if (session.finishedAt !== null) {
        const batch = { kind: 'end', sessionId, finishedAt: session.finishedAt } as const;
        const stop = await this.settle(await this.send(account, batch), async (refused) => {
          if (refused !== null) await outbox.setAside({ sessionId, batch, reason: refused, at: now() });
          await outbox.setAsideHeldLines(sessionId, BATCH_SIZE, now());
          await outbox.removeSession(sessionId);
        });
        if (stop) return stop;
      }
    }
    await outbox.setRetryState(null);
    return { status: 'done' };
  }

  /**
   * Applies one request's outcome; returns a result when the run must stop. `done` runs when the batch
   * leaves the queue: delivered (null) or refused for good (the reason).
   */
  private async settle(outcome: Outcome, done: (refused: string | null) => Promise<void>): Promise<FlushResult | null> {
    const { outbox, now } = this.deps;
    if (outcome === 'unauthorized') {
      await this.deps.rejectAccount();
      return { status: 'signed-out' };
    }
    if (outcome === 'ok' || 'refused' in outcome) {
      await done(outcome === 'ok' ? null : outcome.refused);
      if (outcome === 'ok') await outbox.setLastSentAt(now());
      // The server answered: whatever outage there was is over.
      await outbox.setRetryState(null);
      return null;
    }
    const previous = await outbox.retryState();
    const attempt = (previous?.attempt ?? 0) + 1;
    const retryAt = now() + (outcome.afterMs ?? backoffDelay(attempt, this.deps.random));
    await outbox.setRetryState({ attempt, nextAt: retryAt, lastError: outcome.retry });
    return { status: 'retry', retryAt, error: outcome.retry };
  }

  /**
   * Sends every set-aside batch again, oldest first (the user pressed Retry in the popup). Delivered
   * ones leave the list, refused ones stay with the new reason; a transient failure or 401 stops. The
   * lines held for full meetings go out again with the next flush.
   */
  async retrySetAsides(): Promise<RetrySetAsidesResult> {
    const { outbox, now } = this.deps;
    const result: RetrySetAsidesResult = { delivered: 0, refused: 0, error: null };
    const account = await this.deps.getAccount();
    if (!account || account.rejected) return { ...result, error: 'signed out: sign in in the web app first' };
    await outbox.clearFull();
    for (const entry of await outbox.setAsides()) {
      if (entry.id === undefined) continue;
      const outcome = await this.send(account, entry.batch);
      if (outcome === 'ok') {
        await outbox.removeSetAside(entry.id);
        if (entry.batch.kind === 'lines') await outbox.ack(entry.sessionId, entry.batch.lines, true);
        await outbox.setLastSentAt(now());
        result.delivered += 1;
      } else if (outcome === 'unauthorized') {
        await this.deps.rejectAccount();
        return { ...result, error: 'the server no longer accepts the token: sign in again in the web app' };
      } else if ('refused' in outcome) {
        await outbox.updateSetAside(entry.id, outcome.refused, now());
        result.refused += 1;
      } else {
        return { ...result, error: outcome.retry };
      }
    }
    return result;
  }

  private send(account: Account, batch: SetAsideBatch): Promise<Outcome> | Outcome {
    switch (batch.kind) {
      case 'lines': {
        const parsed = ingestLinesInputSchema.safeParse({ meeting: sanitizeMeeting(batch.meeting), lines: batch.lines });
        if (!parsed.success) return { refused: `invalid batch: ${parsed.error.issues[0]?.message ?? 'rejected'}` };
        return this.post(account, '/v1/transcript/lines', parsed.data, (answer) => ingestLinesOutputSchema.safeParse(answer).success);
      }
      case 'events': {
        const parsed = ingestEventsInputSchema.safeParse({ meeting: sanitizeMeeting(batch.meeting), events: batch.events });
        if (!parsed.success) return { refused: `invalid gap reports: ${parsed.error.issues[0]?.message ?? 'rejected'}` };
        return this.post(account, '/v1/transcript/events', parsed.data, (answer) => ingestEventsOutputSchema.safeParse(answer).success);
      }
      case 'end':
        return this.post(account, '/v1/transcript/end', { sessionId: batch.sessionId, finishedAt: batch.finishedAt }, (answer) =>
          endMeetingOutputSchema.safeParse(answer).success,
        );
    }
  }

  private async post(account: Account, path: string, body: unknown, isValidAnswer: (answer: unknown) => boolean): Promise<Outcome> {
    let response: Response;
    try {
      response = await this.deps.fetch(`${account.serverOrigin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}` },
        body: JSON.stringify(body),
      });
    } catch (error) {
      return { retry: `server unreachable (${error instanceof Error ? error.message : String(error)})` };
    }
    const { status } = response;
    if (status === 401) return 'unauthorized';
    if (TRANSIENT_4XX.has(status) || status >= 500) {
      const afterMs = status === 429 || status === 503 ? retryAfterDelay(response.headers.get('retry-after'), this.deps.now()) : undefined;
      return afterMs === undefined ? { retry: `server answered ${status}` } : { retry: `server answered ${status}`, afterMs };
    }
    if (status >= 400) {
      const text = await response.text().catch(() => '');
      this.deps.log?.(`${path} answered ${status}: ${text}; batch set aside`);
      const message = (() => {
        try {
          return (JSON.parse(text) as { message?: unknown }).message;
        } catch {
          return undefined;
        }
      })();
      return { refused: `server refused (${status}${typeof message === 'string' ? `: ${message.slice(0, 200)}` : ''})`, status };
    }
    // A 2xx that is not our answer (captive portal, wrong server) must not count as delivered.
    const answer: unknown = await response.json().catch(() => null);
    return isValidAnswer(answer) ? 'ok' : { retry: `unexpected answer from ${path}` };
  }
}
