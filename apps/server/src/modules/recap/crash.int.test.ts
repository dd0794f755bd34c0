import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../db/paths.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { actionItemsAside, startOpenAiTestServer, type OpenAiTestServer } from '../../test/openai-server.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { SUMMARY_ATTEMPTS } from './job.js';

/**
 * Exactly once across kill -9: the real server runs as a process (as `npm start` does), the recap
 * job SIGKILLs it at a named point of its first attempt, the server is started again, and the test
 * counts what a real SMTP server received for that meeting end.
 */

const POINTS = ['before-generate', 'after-generate', 'after-smtp'] as const;
type Point = (typeof POINTS)[number];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<NodeJS.Signals | number | null>;
}

async function startServer(env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { cwd: repoRoot, env });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  const deadline = Date.now() + 90_000;
  while (!output.includes('Mbox is ready')) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server not ready in 90 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => output, exited };
}

const TALK = [
  ['Ana', 'We agreed to move the release to Thursday after the security review.'],
  ['Ben', 'I will prepare the changelog and the migration notes for Thursday.'],
  ['Ana', 'The security review found one issue in the session handling.'],
  ['Ben', 'I fix the session handling issue tomorrow and ask Carla to re-test.'],
  ['Ana', 'Good, then Carla signs off on Wednesday and we ship on Thursday.'],
];

describe.each([
  ['PGlite', true],
  ['PostgreSQL', false],
])('recap exactly once across kill -9 on %s', (_name, embedded) => {
  let smtp: TestSmtpServer;
  let dataDir = '';
  let database: TestDatabase | undefined;
  let env: NodeJS.ProcessEnv;
  let base = '';
  let server: Running | undefined;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mbox-crash-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      // Short clocks: a dead job is expired after 3 s, maintenance every second, first retry after 1–2 s.
      JOB_POLL_SECONDS: '0.5',
      JOB_EXPIRE_SECONDS: '3',
      JOB_MAINTENANCE_SECONDS: '1',
      RECAP_RETRY_DELAY_SECONDS: '1',
    };
    delete env.DATABASE_URL;
    if (!embedded) {
      database = await createTestDatabase();
      await database.close();
      env.DATABASE_URL = database.url!;
    }
  }, 120_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await smtp?.close();
    if (database) await database.destroy().catch(() => {});
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const json = { 'content-type': 'application/json' };

  async function call<T>(method: string, route: string, token: string | null, body?: unknown): Promise<T> {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: token ? { ...json, authorization: `Bearer ${token}` } : json,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  async function endMeeting(token: string, sessionId: string) {
    const startedAt = Date.UTC(2026, 10, 21, 10);
    const { meetingKey } = await call<{ meetingKey: string }>('POST', '/v1/transcript/lines', token, {
      meeting: { sessionId, meetCode: 'abc-defg-hij', startedAt, title: `Release ${sessionId}` },
      lines: TALK.map(([speaker, text], i) => ({ captionId: `c${i}`, revision: 0, speaker, text, spokenAt: startedAt + i * 1000, final: true })),
    });
    // The end call answers before the job runs: the crash comes after it.
    await call('POST', '/v1/transcript/end', token, { sessionId, finishedAt: startedAt + 20 * 60_000 });
    return meetingKey;
  }

  async function waitSent(token: string, meetingId: string) {
    const started = Date.now();
    await expect
      .poll(
        async () => {
          const { recaps } = await call<{ recaps: { meetingId: string; status: string }[] }>('GET', '/v1/recaps', token);
          return recaps.find((r) => r.meetingId === meetingId)?.status;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe('sent');
    return Date.now() - started;
  }

  it('never 0 and never 2 distinct messages, whatever the crash point', { timeout: 240_000 }, async () => {
    const results: Record<Point, { raw: number; distinct: number; pickupMs: number }> = {} as never;
    let pending: { point: Point; token: string; meetingId: string; email: string } | undefined;
    for (const point of [...POINTS, null]) {
      server = await startServer(point ? { ...env, MBOX_TEST_CRASH_AT: point } : env);
      if (pending) {
        // The interrupted job is picked up by this run (well within 2 minutes of the restart).
        const pickupMs = await waitSent(pending.token, pending.meetingId);
        const mails = smtp.received.filter((m) => m.recipients.includes(pending!.email));
        results[pending.point] = { raw: mails.length, distinct: new Set(mails.map((m) => m.parsed.messageId)).size, pickupMs };
      }
      if (!point) break;
      const email = `${point}@example.com`;
      const { token } = await call<{ token: string }>('POST', '/v1/auth/login', null, { email });
      const meetingId = await endMeeting(token, `crash-${point}`);
      const exit = await server.exited;
      expect(exit, server.output()).toBe('SIGKILL');
      // Where it died, seen from the SMTP server: only the after-smtp crash comes after a 250.
      expect(smtp.received.filter((m) => m.recipients.includes(email)).length, point).toBe(point === 'after-smtp' ? 1 : 0);
      pending = { point, token, meetingId, email };
    }
    const last = server!;
    last.child.kill('SIGTERM');
    expect(await last.exited).toBe(0);

    for (const point of POINTS) {
      expect(results[point].distinct, point).toBe(1);
      expect(results[point].pickupMs, point).toBeLessThan(120_000);
    }
    // Before the send nothing left: one message. After the server's 250 and before the commit, the
    // retry sends the same message again (same Message-ID), which receivers collapse (docs/recaps.md).
    expect(results['before-generate'].raw).toBe(1);
    expect(results['after-generate'].raw).toBe(1);
    expect(results['after-smtp'].raw).toBe(2);
    // One recap per meeting end, each sent once in the database's record.
    console.info(`crash test (${embedded ? 'PGlite' : 'PostgreSQL'}):`, JSON.stringify(results));
  });
});

/**
 * A summary that kills the server (out of memory, as the offline engine once did on a 10,000-line
 * meeting) must not crash-loop it through every retry of the recap job. Here every summary request
 * reaches an LLM that never answers, and the test SIGKILLs the server each time one arrives: after
 * SUMMARY_ATTEMPTS deaths the next run sends the recap without a summary and the server stays up.
 */
describe('recap of a summary that keeps killing the server (PGlite)', () => {
  let smtp: TestSmtpServer;
  let llm: OpenAiTestServer;
  let dataDir = '';
  let server: Running | undefined;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    // Each end also reads the meeting's action items from the LLM: answered aside, so the stalls are the recap's.
    llm = await startOpenAiTestServer({ aside: actionItemsAside });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mbox-crash-loop-'));
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await llm?.close();
    await smtp?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(`dies ${SUMMARY_ATTEMPTS} times while summarising, then sends the "no summary" note and keeps serving`, { timeout: 300_000 }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: llm.url,
      LLM_MAX_RETRIES: '0',
      LLM_TIMEOUT_MS: '600000',
      JOB_POLL_SECONDS: '0.5',
      JOB_EXPIRE_SECONDS: '3',
      JOB_MAINTENANCE_SECONDS: '1',
      RECAP_RETRY_DELAY_SECONDS: '1',
    };
    delete env.DATABASE_URL;
    // Every summary request stalls: the server is killed while it waits.
    llm.enqueue(...Array.from({ length: SUMMARY_ATTEMPTS + 3 }, () => ({ delayMs: 600_000 })));
    const call = async <T>(method: string, route: string, token: string | null, body?: unknown): Promise<T> => {
      const response = await fetch(`${base}${route}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
      return JSON.parse(text) as T;
    };

    server = await startServer(env);
    const email = 'crash-loop@example.com';
    const { token } = await call<{ token: string }>('POST', '/v1/auth/login', null, { email });
    await call('PUT', '/v1/user-settings', token, { sendNoSummary: true });
    const startedAt = Date.UTC(2026, 10, 21, 10);
    const { meetingKey } = await call<{ meetingKey: string }>('POST', '/v1/transcript/lines', token, {
      meeting: { sessionId: 'crash-loop', meetCode: 'abc-defg-hij', startedAt, title: 'Release crash loop' },
      lines: TALK.map(([speaker, text], i) => ({ captionId: `c${i}`, revision: 0, speaker, text, spokenAt: startedAt + i * 1000, final: true })),
    });
    await call('POST', '/v1/transcript/end', token, { sessionId: 'crash-loop', finishedAt: startedAt + 20 * 60_000 });

    for (let death = 1; death <= SUMMARY_ATTEMPTS; death++) {
      await expect.poll(() => llm.requests.length, { timeout: 60_000, interval: 100 }).toBe(death);
      server.child.kill('SIGKILL');
      expect(await server.exited).toBe('SIGKILL');
      server = await startServer(env);
    }
    const recapOf = async () =>
      (await call<{ recaps: { meetingId: string; status: string; kind: string }[] }>('GET', '/v1/recaps', token)).recaps.find(
        (r) => r.meetingId === meetingKey,
      );
    await expect.poll(async () => (await recapOf())?.status, { timeout: 60_000, interval: 250 }).toBe('sent');
    expect((await recapOf())?.kind).toBe('no-summary');
    // The last run did not ask for the summary again, and it is still up.
    expect(llm.requests).toHaveLength(SUMMARY_ATTEMPTS);
    expect(server.child.exitCode).toBeNull();
    const mails = smtp.received.filter((m) => m.recipients.includes(email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.parsed.text).toContain('The summary of this meeting could not be generated.');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
