import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer, startServer } from '../test/server-process.js';
import { LOCK_FILE, lockDataDir } from './data-dir-lock.js';

/** The id of a process that has just exited: what a crashed server leaves in its lock file. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('one server per embedded database directory (issue 13, item 5)', () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mbox-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('refuses a directory a live process holds, takes over a stale lock, and releases on close', async () => {
    const dir = await tempDir();
    const release = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(`Another Mbox server (PID ${process.pid}) is using the database in ${dir}`);
    await release();
    const again = await lockDataDir(dir);
    await again();

    const lockPath = path.join(dir, LOCK_FILE);
    const dead = await deadPid();
    await writeFile(lockPath, JSON.stringify({ pid: dead, host: hostname(), since: new Date().toISOString() }));
    const takenOver = await lockDataDir(dir);
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    await takenOver();
    // An unreadable file holds nothing either.
    await writeFile(lockPath, 'garbage');
    await (await lockDataDir(dir))();
  });

  it('a second server on the same DATA_DIR refuses to start; the first keeps every acknowledged line', { timeout: 240_000 }, async () => {
    const dataDir = await tempDir();
    // A crashed server's lock does not block the start.
    await writeFile(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: await deadPid(), host: hostname(), since: '2026-01-01' }));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = await startServer(dataDir, port);
    let restarted: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      const json = { 'content-type': 'application/json' };
      const { token } = (await (await fetch(`${base}/v1/auth/login`, { method: 'POST', headers: json })).json()) as { token: string };
      const auth = { ...json, authorization: `Bearer ${token}` };
      const startedAt = Date.now() - 60_000;
      const send = (i: number) =>
        fetch(`${base}/v1/transcript/lines`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            meeting: { sessionId: 'probe', meetCode: 'abc-defg-hij', startedAt },
            lines: [{ captionId: `c${i}`, revision: 0, speaker: 'Ana', text: `line ${i}`, spokenAt: startedAt + i, final: true }],
          }),
        }).then((r) => r.status, () => 0);

      // The probe: lines keep arriving while a second server is started on the same directory.
      const second = spawnServer(dataDir, await freePort());
      const statuses: number[] = [];
      let i = 0;
      while (second.child.exitCode === null && i < 2000) statuses.push(...(await Promise.all([send(i++), send(i++)])));
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`Another Mbox server (PID ${first.child.pid}) is using the database in ${dataDir}`);
      expect(second.output()).not.toContain('Mbox is ready');
      statuses.push(...(await Promise.all(Array.from({ length: 20 }, () => send(i++)))));
      const acknowledged = statuses.filter((s) => s === 200).length;
      expect(acknowledged).toBe(statuses.length);

      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      restarted = await startServer(dataDir, port);
      const [meeting] = (await (await fetch(`${base}/v1/meeting-list`, { headers: auth })).json()) as { key: string }[];
      const detail = (await (await fetch(`${base}/v1/meeting/${meeting!.key}`, { headers: auth })).json()) as { messages: unknown[] };
      expect(detail.messages).toHaveLength(acknowledged);
    } finally {
      for (const server of [first, restarted]) {
        if (server && server.child.exitCode === null) {
          server.child.kill('SIGTERM');
          await server.exited;
        }
      }
    }
  });
});
