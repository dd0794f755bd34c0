import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalModelStatus } from '@mbox/shared';
import { loadConfig } from '../../config.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { tinyGguf } from '../../test/tiny-gguf.js';

// Settings → AI's API, end to end: a download from a local HTTP server into LOCAL_MODEL_DIR, the
// model it installs taking over from the offline engine, a switch without a restart.

const model = tinyGguf();
let server: Server;
let modelUrl: string;
let dir: string;
let app: TestApp;
let token: string;

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-length': String(model.length) }).end(model);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  modelUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tiny.gguf`;
  dir = await mkdtemp(join(tmpdir(), 'mbox-admin-ai-'));
  const env = { NODE_ENV: 'test', DATA_DIR: dir, LOCAL_MODEL_GPU: 'cpu', LOCAL_MODEL_THREADS: '1' } as const;
  app = await startTestApp({ ...loadConfig(env), LOG_LEVEL: 'silent', PORT: 0 });
  token = await app.signIn('admin@example.com');
});
afterAll(async () => {
  await app.close();
  await new Promise<void>((r) => server.close(() => r()));
  await rm(dir, { recursive: true, force: true });
});

async function status(): Promise<LocalModelStatus> {
  const response = await app.rest<LocalModelStatus>('GET', '/v1/admin/ai', { token });
  expect(response.status).toBe(200);
  return response.body;
}

async function until(check: (s: LocalModelStatus) => boolean): Promise<LocalModelStatus> {
  for (let i = 0; i < 300; i++) {
    const s = await status();
    if (check(s)) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never reached: ${JSON.stringify(await status())}`);
}

describe('Settings → AI', () => {
  it('shows the offline engine and the catalogue before any model is installed', async () => {
    const s = await status();
    expect(s).toMatchObject({ engine: 'offline', localAvailable: true, model: { state: 'none', file: null }, installed: [], download: null });
    expect(s.catalogue.map((m) => m.name)).toContain('qwen2.5-1.5b');
  });

  it('downloads a model an administrator typed the URL of, which then answers', async () => {
    const started = await app.rest<LocalModelStatus>('POST', '/v1/admin/ai/download', { token, body: { url: modelUrl, file: 'tiny.gguf' } });
    expect(started.status).toBe(200);
    const done = await until((s) => s.model.state === 'ready');
    expect(done).toMatchObject({
      engine: 'local',
      model: { file: 'tiny.gguf', contextTokens: 4096 },
      installed: [{ file: 'tiny.gguf', bytes: model.length, active: true }],
      download: { state: 'done', received: model.length, total: model.length },
    });
    expect((await app.rest('GET', '/v1/summary-capabilities', { token })).body).toEqual({ llmConfigured: true, engine: 'local' });
  });

  it('switches to another installed model without a restart', async () => {
    await copyFile(join(dir, 'models', 'tiny.gguf'), join(dir, 'models', 'other.gguf'));
    const switched = await app.rest<LocalModelStatus>('POST', '/v1/admin/ai/activate', { token, body: { file: 'other.gguf' } });
    expect(switched.status).toBe(200);
    expect(switched.body.model).toMatchObject({ state: 'ready', file: 'other.gguf' });
    const answer = await app.deps.ai.streamChat([{ role: 'user', content: 'Hello' }], { tier: 'basic', maxTokens: 4 }, () => {});
    expect(answer.model).toBe('local:other');
  });

  it('refuses unknown models, other folders and names, with 4xx naming the problem', async () => {
    expect((await app.rest('POST', '/v1/admin/ai/activate', { token, body: { file: 'missing.gguf' } })).status).toBe(404);
    const escape = await app.rest<{ data: { field: string } }>('POST', '/v1/admin/ai/activate', { token, body: { file: '../secrets.gguf' } });
    expect(escape.status).toBe(400);
    expect((await app.rest('POST', '/v1/admin/ai/download', { token, body: { name: 'no-such-model' } })).status).toBe(400);
    expect((await app.rest('POST', '/v1/admin/ai/download', { token, body: { url: 'file:///etc/passwd', file: 'x.gguf' } })).status).toBe(400);
    expect((await app.rest('POST', '/v1/admin/ai/download', { token, body: { url: modelUrl, file: 'x.bin' } })).status).toBe(400);
  });

  it('needs a signed-in administrator', async () => {
    expect((await app.rest('GET', '/v1/admin/ai')).status).toBe(401);
  });
});
