import { afterAll, beforeAll, expect } from 'vitest';
import type { Config } from '../../config.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../test/smtp-server.js';

/** Helpers of the recap tests: a meeting captured and ended through the extension's calls, and its recap. */

export const PUBLIC_URL = 'http://mbox.test:8080';
export const startedAt = Date.UTC(2026, 10, 20, 15, 0);
/** Jobs polled often, links on a public origin. */
export const fast: Partial<Config> = { JOB_POLL_SECONDS: 0.5, PUBLIC_URL };

/** A summarisable meeting (6 lines from 2 speakers); its first 2 lines are too few to summarise. */
export const TALK = [
  ['Ana', 'Welcome everyone, today we decide the launch date for the new billing page.'],
  ['Ben', 'The billing page is ready for review; QA found two bugs in the invoice export.'],
  ['Ana', 'Then we fix the invoice export bugs first and launch next Tuesday.'],
  ['Ben', 'Agreed. I will fix the export bugs by Friday and send the release notes.'],
  ['Ana', 'Great. Carla will announce the launch to customers on Tuesday morning.'],
  ['Ben', 'I will also update the help centre article about invoices.'],
] as const;

/** Sends caption lines of the meeting 'Billing launch sync' as the extension does; answers its key. */
export async function ingest(app: TestApp, token: string, sessionId: string, lines: readonly (readonly [string, string])[], from = 0) {
  const { status, body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
    token,
    body: {
      meeting: { sessionId, meetCode: 'abc-defg-hij', startedAt, title: 'Billing launch sync', participants: ['Ana', 'Ben'] },
      lines: lines.map(([speaker, text], i) => ({
        captionId: `c${from + i}`,
        revision: 0,
        speaker,
        text,
        spokenAt: startedAt + (from + i) * 60_000,
        final: true,
      })),
    },
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.meetingKey;
}

/** The extension's end call: the recap is queued. */
export async function end(app: TestApp, token: string, sessionId: string, finishedAt = startedAt + 30 * 60_000) {
  const { status, body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/end', { token, body: { sessionId, finishedAt } });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.meetingKey;
}

export async function recapOf(app: TestApp, token: string, meetingId: string) {
  const { recaps } = await app.trpc(token).recap.list.query({});
  return recaps.find((r) => r.meetingId === meetingId);
}

/** The meeting's recap once its job is done (sent, skipped or failed). */
export async function settled(app: TestApp, token: string, meetingId: string) {
  await expect
    .poll(async () => (await recapOf(app, token, meetingId))?.status, { timeout: 30_000, interval: 200 })
    .toMatch(/^(sent|skipped|failed)$/);
  return (await recapOf(app, token, meetingId))!;
}

export async function updateSettings(app: TestApp, token: string, body: Record<string, unknown>) {
  const result = await app.rest('PUT', '/v1/user-settings', { token, body });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
}

export interface SmtpTestApp {
  app: TestApp;
  smtp: TestSmtpServer;
  /** The messages whose envelope names `address`. */
  mailsTo(address: string): ReceivedMail[];
}

/** For the describe block it is called in: an app that sends over a real SMTP test server. */
export function withSmtpApp(overrides: Partial<Config> = {}): SmtpTestApp {
  const env = { mailsTo: (address: string) => env.smtp.received.filter((m) => m.recipients.includes(address)) } as SmtpTestApp;
  beforeAll(async () => {
    env.smtp = await startSmtpServer();
    env.app = await startTestApp({ ...fast, SMTP_URL: env.smtp.url, ...overrides });
  });
  afterAll(async () => {
    await env.app?.close();
    await env.smtp?.close();
  });
  return env;
}
