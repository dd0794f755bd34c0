import {
  MAX_EVENTS_PER_BATCH,
  captureEventSchema,
  endMeetingOutputSchema,
  ingestEventsInputSchema,
  ingestEventsOutputSchema,
  ingestLinesInputSchema,
  ingestLinesOutputSchema,
  transcriptLineSchema,
  type CaptureEvent,
  type TranscriptLine,
} from '@mbox/shared';
import type { Account } from '../messages.js';
import type { IngestMeeting, Outbox } from './outbox.js';

/**
 * Drains the outbox to the server. Per session: lines, then capture gaps, and the end only after its
 * last line and gap were acknowledged. 401: the token is invalid, sending stops until a new sign-in (the
 * outbox is kept). 429, 5xx and network errors: keep everything and retry with exponential backoff.
 * Other 4xx: the server will never accept that batch; it is set aside (counted, shown in the popup) so
 * it cannot block the queue.
 */

export const BATCH_SIZE = 200;
export const BACKOFF_BASE_MS = 2000;
export const BACKOFF_MAX_MS = 5 * 60_000;

export type FlushResult =
  | { status: 'done' }
  | { status: 'signed-out' }
  | { status: 'retry'; retryAt: number; error: string };

export interface SenderDeps {
  outbox: Outbox;
  fetch: typeof fetch;
  getAccount: () => Promise<Account | null>;
  /** The server refused the token (401). */
  rejectAccount: () => Promise<void>;
  now: () => number;
  log?: (message: string) => void;
}

type Outcome = 'ok' | { drop: string } | 'unauthorized' | { retry: string };

export function backoffDelay(attempt: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
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
      for (;;) {
        const lines = await outbox.linesOf(session.sessionId, BATCH_SIZE);
        if (lines.length === 0) break;
        const outcome = await this.sendLines(account, session.meeting, lines);
        const stop = await this.settle(outcome, async (refused) => {
          await outbox.ack(session.sessionId, lines, refused === null);
          if (refused !== null) {
            await outbox.setAside({ sessionId: session.sessionId, what: 'lines', count: lines.length, reason: refused, at: now() });
          }
        });
        if (stop) return stop;
      }
      for (;;) {
        const events = await outbox.eventsOf(session.sessionId, MAX_EVENTS_PER_BATCH);
        if (events.length === 0) break;
        const outcome = await this.sendEvents(account, session.meeting, events);
        const stop = await this.settle(outcome, async (refused) => {
          await outbox.ackEvents(session.sessionId, events);
          if (refused !== null) {
            await outbox.setAside({ sessionId: session.sessionId, what: 'events', count: events.length, reason: refused, at: now() });
          }
        });
        if (stop) return stop;
      }
      if (session.finishedAt !== null) {
        const outcome = await this.post(account, '/v1/transcript/end', { sessionId: session.sessionId, finishedAt: session.finishedAt }, (body) =>
          endMeetingOutputSchema.safeParse(body).success,
        );
        const stop = await this.settle(outcome, () => outbox.removeSession(session.sessionId));
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
    if (outcome === 'ok' || (typeof outcome === 'object' && 'drop' in outcome)) {
      await done(outcome === 'ok' ? null : outcome.drop);
      if (outcome === 'ok') await this.deps.outbox.setLastSentAt(this.deps.now());
      await this.deps.outbox.setRetryState(null);
      return null;
    }
    if (outcome === 'unauthorized') {
      await this.deps.rejectAccount();
      return { status: 'signed-out' };
    }
    const previous = await this.deps.outbox.retryState();
    const attempt = (previous?.attempt ?? 0) + 1;
    const retryAt = this.deps.now() + backoffDelay(attempt);
    await this.deps.outbox.setRetryState({ attempt, nextAt: retryAt, lastError: outcome.retry });
    return { status: 'retry', retryAt, error: outcome.retry };
  }

  private async sendLines(account: Account, meeting: IngestMeeting, lines: TranscriptLine[]): Promise<Outcome> {
    const valid = lines.filter((line) => {
      const ok = transcriptLineSchema.safeParse(line).success;
      if (!ok) this.deps.log?.(`dropping invalid line ${line.captionId}`);
      return ok;
    });
    const body = { meeting: sanitizeMeeting(meeting), lines: valid };
    if (valid.length === 0) return { drop: 'invalid lines' };
    const parsed = ingestLinesInputSchema.safeParse(body);
    if (!parsed.success) {
      this.deps.log?.(`dropping batch of ${meeting.sessionId}: ${parsed.error.message}`);
      return { drop: `invalid batch: ${parsed.error.issues[0]?.message ?? 'rejected'}` };
    }
    return this.post(account, '/v1/transcript/lines', parsed.data, (answer) => ingestLinesOutputSchema.safeParse(answer).success);
  }

  private async sendEvents(account: Account, meeting: IngestMeeting, events: CaptureEvent[]): Promise<Outcome> {
    const valid = events.filter((event) => captureEventSchema.safeParse(event).success);
    if (valid.length === 0) return { drop: 'invalid capture events' };
    const parsed = ingestEventsInputSchema.safeParse({ meeting: sanitizeMeeting(meeting), events: valid });
    if (!parsed.success) return { drop: `invalid events: ${parsed.error.issues[0]?.message ?? 'rejected'}` };
    return this.post(account, '/v1/transcript/events', parsed.data, (answer) => ingestEventsOutputSchema.safeParse(answer).success);
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
    if (response.status === 401) return 'unauthorized';
    if (response.status === 429 || response.status >= 500) return { retry: `server answered ${response.status}` };
    if (response.status >= 400) {
      const text = await response.text().catch(() => '');
      this.deps.log?.(`${path} answered ${response.status}: ${text}; batch set aside`);
      const message = (() => {
        try {
          return (JSON.parse(text) as { message?: unknown }).message;
        } catch {
          return undefined;
        }
      })();
      return { drop: `server refused (${response.status}${typeof message === 'string' ? `: ${message.slice(0, 200)}` : ''})` };
    }
    // A 2xx that is not our answer (captive portal, wrong server) must not count as delivered.
    const answer: unknown = await response.json().catch(() => null);
    return isValidAnswer(answer) ? 'ok' : { retry: `unexpected answer from ${path}` };
  }
}
