import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer, startServer } from '../test/server-process.js';
import { LOCK_FILE, lockDataDir } from './data-dir-lock.js';
import { repoRoot } from './paths.js';

/** The id of a process that has just exited: what a crashed server leaves in its lock file. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('one server per embedded database directory', () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mbox-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('refuses a directory another open lock holds, and is free again once it is released', async () => {
    const dir = await tempDir();
    const release = await lockDataDir(dir);
    // The lock belongs to the open file, not the process: a second opener in this very process is refused too.
    await expect(lockDataDir(dir)).rejects.toThrow(`Another Mbox server (PID ${process.pid}) is using the database in ${dir}`);
    await release();
    expect(await readFile(path.join(dir, LOCK_FILE), 'utf8')).toBe('');
    await (await lockDataDir(dir))();
  });

  it('is never blocked by what a stale lock file says: a dead PID, a live unrelated PID, its own PID, garbage', async () => {
    const dir = await tempDir();
    const lockPath = path.join(dir, LOCK_FILE);
    // An unrelated process that is alive: after a reboot the PID a crashed server wrote may be anyone's.
    const unrelated = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      const holders = [
        JSON.stringify({ pid: await deadPid(), host: hostname(), since: '2026-01-01' }),
        JSON.stringify({ pid: unrelated.pid, host: hostname(), since: '2026-01-01' }),
        // In a container the crashed server and the new one are both PID 1.
        JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-01-01' }),
        JSON.stringify({ pid: 4242, host: 'another-host', since: '2026-01-01' }),
        'garbage',
      ];
      for (const holder of holders) {
        await writeFile(lockPath, holder);
        const release = await lockDataDir(dir);
        expect(JSON.parse(await readFile(lockPath, 'utf8')), holder).toMatchObject({ pid: process.pid, host: hostname() });
        await release();
      }
    } finally {
      unrelated.kill('SIGKILL');
    }
  });

  it('is released by the operating system when its holder dies, even by kill -9', { timeout: 60_000 }, async () => {
    const dir = await tempDir();
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { lockDataDir } = await import(${JSON.stringify(path.resolve(import.meta.dirname, 'data-dir-lock.ts'))});
         await lockDataDir(${JSON.stringify(dir)});
         console.log('locked');
         setTimeout(() => {}, 120_000);`,
      ],
      { cwd: repoRoot },
    );
    let output = '';
    holder.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    holder.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => holder.on('exit', resolve));
    try {
      const deadline = Date.now() + 45_000;
      while (!output.includes('locked')) {
        if (holder.exitCode !== null || Date.now() > deadline) throw new Error(`the holder did not lock:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await expect(lockDataDir(dir)).rejects.toThrow(`Another Mbox server (PID ${holder.pid}) is using the database in ${dir}`);
      holder.kill('SIGKILL');
      await exited;
      // Nothing to delete by hand: the file is still there, naming the dead holder, and the lock is free.
      expect(JSON.parse(await readFile(path.join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: holder.pid });
      await (await lockDataDir(dir))();
    } finally {
      if (holder.exitCode === null) holder.kill('SIGKILL');
    }
  });

  it('a second server on the same DATA_DIR refuses to start; the first keeps every acknowledged line', { timeout: 240_000 }, async () => {
    const dataDir = await tempDir();
    // A crashed server's lock does not block the start, even when the PID it names is alive (this test runner).
    await writeFile(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-01-01' }));
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
