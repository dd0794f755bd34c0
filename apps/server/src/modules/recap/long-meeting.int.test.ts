import { MAX_LINE_TEXT, MAX_LINES_PER_BATCH, PROMPT_KEYS, type SummaryDepth } from '@mbox/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QMSUM_FIXTURE_MEETINGS, loadQmsumMeeting, toTranscript } from '../../ai/eval/qmsum.js';
import type { TranscriptTurn } from '../../ai/index.js';
import type { Config } from '../../config.js';
import { JOBS_SCHEMA } from '../../jobs/jobs.js';
import { actionItemsAside, startOpenAiTestServer, type OpenAiTestServer } from '../../test/openai-server.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { SUMMARY_ATTEMPTS } from './job.js';

/**
 * Summarising a 10,000-line meeting with the offline engine ran the heap out of memory, so
 * the recap job died, was retried, and the server crash-looped. And whatever the engine does, a
 * summary that cannot be produced must not keep the recap job (and the server) failing.
 */

const startedAt = Date.UTC(2026, 10, 20, 9, 0);
const BIG = 10_000;
const fast: Partial<Config> = { JOB_POLL_SECONDS: 0.5, PUBLIC_URL: 'http://mbox.test:8080' };

/** The QMSum meetings' turns (three meetings, a dozen speakers) repeated to `lines` caption lines. */
function longMeeting(lines: number): TranscriptTurn[] {
  const turns = QMSUM_FIXTURE_MEETINGS.flatMap((name) => toTranscript(loadQmsumMeeting(name)));
  return Array.from({ length: lines }, (_, i) => {
    const turn = turns[i % turns.length]!;
    return { speaker: turn.speaker, text: turn.text.slice(0, MAX_LINE_TEXT) };
  });
}

async function ingest(app: TestApp, token: string, sessionId: string, lines: readonly TranscriptTurn[]): Promise<string> {
  let meetingKey = '';
  for (let from = 0; from < lines.length; from += MAX_LINES_PER_BATCH) {
    const { status, body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
      token,
      body: {
        meeting: { sessionId, meetCode: 'abc-defg-hij', startedAt, title: `Long meeting ${sessionId}` },
        lines: lines.slice(from, from + MAX_LINES_PER_BATCH).map((line, k) => ({
          captionId: `c${from + k}`,
          revision: 0,
          speaker: line.speaker,
          text: line.text,
          spokenAt: startedAt + (from + k) * 1000,
          final: true,
        })),
      },
    });
    expect(status, JSON.stringify(body)).toBe(200);
    meetingKey = body.meetingKey;
  }
  return meetingKey;
}

async function end(app: TestApp, token: string, sessionId: string, lines: number) {
  const { status, body } = await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId, finishedAt: startedAt + lines * 1000 } });
  expect(status, JSON.stringify(body)).toBe(200);
}

async function settledRecap(app: TestApp, token: string, meetingId: string, timeout = 30_000) {
  const find = async () => (await app.trpc(token).recap.list.query({})).recaps.find((r) => r.meetingId === meetingId);
  await expect.poll(async () => (await find())?.status, { timeout, interval: 250 }).toMatch(/^(sent|skipped|failed)$/);
  return (await find())!;
}

/** The state of the recap's job in the queue (pg-boss's own table). */
async function jobState(app: TestApp, recapId: string): Promise<{ state: string; retry_count: number }[]> {
  return app.deps.db.$queryRawUnsafe(
    `SELECT state, retry_count FROM ${JOBS_SCHEMA}.job WHERE name = 'recap-send' AND data->>'recapId' = $1`,
    recapId,
  );
}

const MB = 2 ** 20;

describe('a 10,000-line meeting with the offline engine', () => {
  let smtp: TestSmtpServer;
  let app: TestApp;
  const transcript = longMeeting(BIG);
  const speakers = [...new Set(transcript.map((t) => t.speaker))];
  let token = '';
  let meetingId = '';

  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({ ...fast, SMTP_URL: smtp.url });
    token = await app.signIn('big@example.com');
    meetingId = await ingest(app, token, 'big', transcript);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it('ends; the recap job summarises it on its first attempt and sends the recap; the server keeps serving', { timeout: 180_000 }, async () => {
    await end(app, token, 'big', BIG);
    const recap = await settledRecap(app, token, meetingId, 150_000);
    expect(recap).toMatchObject({ status: 'sent', kind: 'summary', error: '', attempts: 1 });
    // Completed by its first run: no attempt died or expired on the way.
    expect(await jobState(app, recap.id)).toEqual([{ state: 'completed', retry_count: 0 }]);

    const mails = smtp.received.filter((m) => m.recipients.includes('big@example.com'));
    expect(mails).toHaveLength(1);
    const text = mails[0]!.parsed.text!;
    // A real summary: the overview sentence, then notes by topic ("Label: notes…") naming who said what.
    expect(text).toMatch(/ discussed .+\./);
    const points = text.split('\n').filter((line) => /^[^:]{3,80}: \S+/.test(line));
    expect(points.length).toBeGreaterThanOrEqual(2);
    expect(speakers.some((speaker) => points.some((point) => point.includes(speaker)))).toBe(true);
    expect(text).not.toContain('could not be generated');

    // Alive and answering: the meeting and its stored summary.
    const meeting = await app.rest<{ messages: unknown[] }>('GET', `/v1/meeting/${meetingId}`, { token });
    expect(meeting.status).toBe(200);
    expect(await app.deps.db.summary.count({ where: { meetingId, promptKey: 'summary' } })).toBe(1);
  });

  // Twelve summaries of 10,000 lines, one after another in the worker thread: minutes on a loaded 2-core machine.
  it('the web app\'s summary calls answer on it, every prompt and depth, in bounded memory', { timeout: 600_000 }, async () => {
    const regenerated = await app.trpc(token).summary.generate.mutate({ meetKey: meetingId, promptKey: 'decision' });
    expect(regenerated.text).toMatch(/^<ul><li><b>[^<]+:<\/b> /);

    // The engine called directly on the meeting's 10,000 lines, as the summary module calls it.
    const peakBefore = process.resourceUsage().maxRSS;
    const runs: { promptKey: (typeof PROMPT_KEYS)[number]; depth: SummaryDepth }[] = [
      ...PROMPT_KEYS.map((promptKey) => ({ promptKey, depth: 'standard' as const })),
      { promptKey: 'summary', depth: 'deep' },
      { promptKey: 'summary', depth: 'speaker' },
    ];
    for (const { promptKey, depth } of runs) {
      const { html, model } = await app.deps.ai.generateSummary({
        transcript,
        promptKey,
        customPrompt: promptKey === 'custom' ? 'What did they say about the remote control buttons?' : undefined,
        settings: { depth },
        tier: 'basic',
      });
      expect(model).toBe('mbox-offline');
      expect(html.replace(/<[^>]+>/g, ' ').split(/\s+/).filter(Boolean).length, `${promptKey}/${depth}`).toBeGreaterThan(8);
    }
    // maxRSS is the process's high-water mark: all these runs together raised it by less than 300 MB
    // (before the fix one summary of this meeting needed several GB).
    expect((process.resourceUsage().maxRSS * 1024 - peakBefore * 1024) / MB).toBeLessThan(300);
  });
});

describe('a recap whose summary cannot be produced', () => {
  const TALK: TranscriptTurn[] = [
    { speaker: 'Ana', text: 'Welcome everyone, today we decide the launch date for the new billing page.' },
    { speaker: 'Ben', text: 'The billing page is ready for review; QA found two bugs in the invoice export.' },
    { speaker: 'Ana', text: 'Then we fix the invoice export bugs first and launch next Tuesday.' },
    { speaker: 'Ben', text: 'Agreed. I will fix the export bugs by Friday and send the release notes.' },
    { speaker: 'Ana', text: 'Great. Carla will announce the launch to customers on Tuesday morning.' },
  ];
  let smtp: TestSmtpServer;
  let llm: OpenAiTestServer;
  let app: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    // Each end also reads the meeting's action items from the LLM: answered aside, so the script is the recap's.
    llm = await startOpenAiTestServer({ aside: actionItemsAside });
    app = await startTestApp({
      ...fast,
      SMTP_URL: smtp.url,
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: llm.url,
      LLM_MAX_RETRIES: 0,
      LLM_TIMEOUT_MS: 2000,
      RECAP_RETRY_DELAY_SECONDS: 1,
    });
  });
  afterAll(async () => {
    await app?.close();
    await llm?.close();
    await smtp?.close();
  });
  beforeEach(() => llm.reset());

  async function endMeeting(email: string, settings: { sendNoSummary: boolean }) {
    const token = await app.signIn(email);
    const { status } = await app.rest('PUT', '/v1/user-settings', { token, body: settings });
    expect(status).toBe(200);
    const meetingId = await ingest(app, token, email, TALK);
    await end(app, token, email, TALK.length);
    const recap = await settledRecap(app, token, meetingId);
    return { token, meetingId, recap, mails: smtp.received.filter((m) => m.recipients.includes(email)) };
  }

  it('refused by the LLM: with sendNoSummary the "could not be generated" note goes out at once, and the job completes', { timeout: 60_000 }, async () => {
    llm.enqueue({ status: 400, message: 'model not found' });
    const { recap, mails } = await endMeeting('refused-note@example.com', { sendNoSummary: true });
    expect(recap).toMatchObject({ status: 'sent', kind: 'no-summary', attempts: 1 });
    expect(llm.requests).toHaveLength(1);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.parsed.subject).toMatch(/^No summary for "Long meeting refused-note@example.com"/);
    expect(mails[0]!.parsed.text).toContain('The summary of this meeting could not be generated.');
    expect(mails[0]!.parsed.text).not.toContain('too short');
    expect(await jobState(app, recap.id)).toEqual([{ state: 'completed', retry_count: 0 }]);
  });

  it('refused by the LLM without sendNoSummary: nothing is sent, the recap is failed with the reason, the job completes', { timeout: 60_000 }, async () => {
    llm.enqueue({ status: 400, message: 'model not found' });
    const { recap, mails } = await endMeeting('refused-quiet@example.com', { sendNoSummary: false });
    expect(recap.status).toBe('failed');
    expect(recap.kind).toBe('summary');
    expect(recap.error).toMatch(/^The summary could not be generated: .*refused/);
    expect(mails).toHaveLength(0);
    expect(await jobState(app, recap.id)).toEqual([{ state: 'completed', retry_count: 0 }]);
  });

  it('a temporary LLM outage is retried by the queue, and the summary is sent once the LLM answers', { timeout: 60_000 }, async () => {
    llm.enqueue({ status: 503, message: 'overloaded' });
    const { recap, mails } = await endMeeting('outage-short@example.com', { sendNoSummary: true });
    expect(recap).toMatchObject({ status: 'sent', kind: 'summary' });
    expect(llm.requests).toHaveLength(2);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.parsed.text).toContain('Answer 2 from');
    expect(await jobState(app, recap.id)).toEqual([{ state: 'completed', retry_count: 1 }]);
  });

  it(`an outage that outlasts ${SUMMARY_ATTEMPTS} attempts: the note goes out, no further retry`, { timeout: 90_000 }, async () => {
    llm.enqueue(...Array.from({ length: SUMMARY_ATTEMPTS + 2 }, () => ({ status: 503, message: 'overloaded' })));
    const { recap, mails } = await endMeeting('outage-long@example.com', { sendNoSummary: true });
    expect(recap).toMatchObject({ status: 'sent', kind: 'no-summary' });
    expect(llm.requests).toHaveLength(SUMMARY_ATTEMPTS);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.parsed.text).toContain('The summary of this meeting could not be generated.');
    expect(await jobState(app, recap.id)).toEqual([{ state: 'completed', retry_count: SUMMARY_ATTEMPTS - 1 }]);
  });
});
