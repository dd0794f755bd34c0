import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServer as start } from './test/server-process.js';

describe('npm start on the embedded database', () => {
  let dataDir = '';
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves, finishes in-flight requests on SIGTERM, closes cleanly, and keeps data across a restart', { timeout: 240_000 }, async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mbox-start-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const json = { 'content-type': 'application/json' };

    const first = await start(dataDir, port);
    expect(first.output()).toContain('migrations applied');
    const login = (await (await fetch(`${base}/v1/auth/login`, { method: 'POST', headers: json })).json()) as { token: string };
    const auth = { ...json, authorization: `Bearer ${login.token}` };
    const startedAt = Date.UTC(2026, 10, 22, 9);
    const batch = (i: number) =>
      fetch(`${base}/v1/transcript/lines`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          meeting: { sessionId: 'restart', meetCode: 'abc-defg-hij', startedAt },
          lines: [{ captionId: `c${i}`, revision: 0, speaker: 'Ana', text: `line ${i}`, spokenAt: startedAt + i, final: true }],
        }),
      });
    await batch(0);
    // Requests under way when the signal arrives still complete.
    const inFlight = Array.from({ length: 5 }, (_, i) => batch(i + 1));
    await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGTERM');
    const statuses = await Promise.all(inFlight.map((p) => p.then((r) => r.status, () => 0)));
    expect(await first.exited, first.output()).toBe(0);
    expect(first.output()).toContain('stopped cleanly');
    const completed = statuses.filter((s) => s === 200).length;

    const second = await start(dataDir, port);
    try {
      expect(second.output()).not.toContain('migrations applied');
      const list = (await (await fetch(`${base}/v1/meeting-list`, { headers: auth })).json()) as { key: string }[];
      expect(list).toHaveLength(1);
      const detail = (await (await fetch(`${base}/v1/meeting/${list[0]!.key}`, { headers: auth })).json()) as {
        messages: unknown[];
      };
      // Every request answered 200 before shutdown was stored; none was half-written.
      expect(detail.messages).toHaveLength(1 + completed);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  });
});
