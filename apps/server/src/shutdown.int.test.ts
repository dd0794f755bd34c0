import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
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

it('closes at once a connection a client opened and has sent no request on', async () => {
  const app = await startTestApp({});
  // A client's pool may open a connection ahead of a request it then sends elsewhere, and hold it for
  // its keep-alive timeout; Node counts it as active (awaiting headers), so close() alone waited for it.
  const socket = net.connect(Number(new URL(app.url).port), '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => {});
  const ended = new Promise((resolve) => socket.once('close', resolve));
  const began = Date.now();
  await app.close();
  await ended;
  expect(Date.now() - began).toBeLessThan(5_000);
}, 30_000);
