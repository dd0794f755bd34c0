import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './db/paths.js';
import { createTestDatabase, type TestDatabase } from './test/database.js';
import { freePort, spawnServer, type ServerProcess } from './test/server-process.js';

// What a person sees in the terminal running the server: the log's form (JSON down a pipe, readable
// lines on a terminal) and the one ready line with the address it really serves.

async function waitFor(running: ServerProcess, text: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!running.output().includes(text)) {
    if (running.child.exitCode !== null) throw new Error(`server exited early:\n${running.output()}`);
    if (Date.now() > deadline) throw new Error(`no "${text}" in 90 s:\n${running.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(running: ServerProcess): Promise<void> {
  running.child.kill('SIGTERM');
  await running.exited;
}

describe('the server in a terminal', () => {
  let database: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mbox-start-output-'));
  });

  afterAll(async () => {
    await database.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  const env = () => (database.url ? { DATABASE_URL: database.url } : {});

  it('writes JSON lines down a pipe, with one ready line naming the URL it serves', async () => {
    const port = await freePort();
    const running = spawnServer(dataDir, port, { ...env(), HOST: 'localhost' });
    try {
      await waitFor(running, 'Mbox is ready');
      expect((await fetch(`http://localhost:${port}/healthz`)).status).toBe(200);
      await waitFor(running, 'request completed');
    } finally {
      await stop(running);
    }
    const lines = running
      .output()
      .split('\n')
      .filter((line) => line.trim());
    const records = lines.map((line) => JSON.parse(line) as { msg: string; url?: string; req?: { path?: string } });
    const ready = records.filter((record) => record.msg.startsWith('Mbox is ready'));
    expect(ready).toHaveLength(1);
    expect(records.filter((record) => record.msg.startsWith('Server listening'))).toEqual([]);
    expect(ready[0]).toMatchObject({ msg: `Mbox is ready at http://localhost:${port}`, url: `http://localhost:${port}` });
    expect(records.find((record) => record.msg === 'request completed')?.req?.path).toBe('/healthz');
  });

  it('writes readable lines on a terminal, down to the last one before it exits', async () => {
    const port = await freePort();
    const serverEnv = { ...process.env, ...env(), DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' };
    if (!database.url) delete serverEnv.DATABASE_URL;
    // util-linux `script` runs the server on a pseudo-terminal, as a shell would.
    const command = `exec ${process.execPath} --import tsx apps/server/src/main.ts`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: repoRoot, env: serverEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const running: ServerProcess = { child, output: () => output, exited: new Promise((resolve) => child.on('exit', resolve)) };
    try {
      await waitFor(running, 'Mbox is ready');
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      await waitFor(running, 'request completed GET /healthz 200');
      // Ctrl-C, as typed in the terminal: the server gets SIGINT and stops cleanly.
      child.stdin.write('\x03');
      await waitFor(running, 'stopped cleanly');
    } finally {
      await stop(running);
    }
    // The terminal's colours aside, each line is `[time] LEVEL: message {fields}`.
    const plain = stripVTControlCharacters(output).replace(/\r/g, '');
    const lines = plain.split('\n').filter((line) => line.trim());
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    expect(lines.filter((line) => line.includes('Mbox is ready'))).toHaveLength(1);
    expect(plain).not.toContain('Server listening');
    expect(plain).toMatch(new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: Mbox is ready at http://localhost:${port} `, 'm'));
    expect(plain).toMatch(/INFO: request completed GET \/healthz 200 \(\d+ ms\)/);
    expect(plain).toMatch(/INFO: stopped cleanly/);
  });

  it('stops with a clear message when the PORT it was given is taken', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const running = spawnServer(dataDir, port, { ...env(), LOG_FORMAT: 'json' });
      expect(await running.exited).toBe(1);
      expect(running.output()).toContain(`Port ${port} on 127.0.0.1 is in use by another program: stop it, or set PORT to a free port`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
