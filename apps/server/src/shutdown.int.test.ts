import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startTestApp } from './test/app.js';

let webDist: string | undefined;
afterAll(async () => {
  if (webDist) await rm(webDist, { recursive: true, force: true });
});

it('closes without waiting out the keep-alive timeout of a response that finished after close began', async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), 'mbox-shutdown-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html>');
  // Large and incompressible, so the answer is still being written while the client holds back.
  await writeFile(path.join(webDist, 'assets/big-AbC123.js'), randomBytes(16 * 1024 * 1024));
  const app = await startTestApp({}, { webDist });

  const agent = new http.Agent({ keepAlive: true });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get(`${app.url}/assets/big-AbC123.js`, { agent }, resolve).on('error', reject),
  );
  response.pause();
  const closed = app.close().then(() => Date.now());
  await new Promise((resolve) => setTimeout(resolve, 200));
  const received = await new Promise<number>((resolve, reject) => {
    let bytes = 0;
    response.on('data', (chunk: Buffer) => (bytes += chunk.length));
    response.on('end', () => resolve(bytes));
    response.on('error', reject);
    response.resume();
  });
  const finished = Date.now();
  expect(received).toBe(16 * 1024 * 1024);
  // Before, the connection went idle after close() had closed the idle ones, and close() waited 72 s.
  expect((await closed) - finished).toBeLessThan(5_000);
  agent.destroy();
}, 30_000);
