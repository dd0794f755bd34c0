import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { tinyGguf } from '../../apps/server/src/test/tiny-gguf.js';
import { launchBrowser, openSignedIn, startWebApp } from './support/browser.js';

// Settings › AI in Chromium: an administrator downloads a model by URL (served by a local HTTP server),
// watches it load and take over from the offline engine, all without a restart.

describe('Settings › AI', () => {
  let app: TestApp;
  let browser: Browser;
  let server: Server;
  let dir: string;
  const model = tinyGguf();

  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-length': String(model.length) }).end(model);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    dir = await mkdtemp(join(tmpdir(), 'mbox-e2e-ai-'));
    app = await startWebApp({ LOCAL_MODEL_DIR: dir, LOCAL_MODEL_GPU: 'cpu', LOCAL_MODEL_THREADS: 1 });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise<void>((r) => server.close(() => r()));
    await rm(dir, { recursive: true, force: true });
  });

  it('downloads a model an administrator typed the URL of, and switches to it without a restart', async () => {
    const { context, page } = await openSignedIn(browser, app, { email: 'admin@example.com', path: '/settings?tab=ai' });
    const engine = page.getByTestId('ai-engine');
    await expect.poll(() => engine.textContent()).toMatch(/^The offline engine answers/);
    expect(await page.getByRole('link', { name: 'Qwen2.5 1.5B Instruct (Q4_K_M)' }).count()).toBe(1);

    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tiny.gguf`;
    await page.getByLabel('GGUF URL').fill(url);
    await page.getByLabel('Save as').fill('tiny.gguf');
    await page.locator('form').getByRole('button', { name: 'Download' }).click();
    await expect.poll(() => engine.textContent(), { timeout: 60_000 }).toBe('The local model tiny.gguf answers, inside this server.');
    const installed = page.getByRole('listitem', { name: 'tiny.gguf' });
    await expect.poll(() => installed.textContent()).toContain('In use');
    expect((await app.rest('GET', '/v1/summary-capabilities', { token: await app.signIn('admin@example.com') })).body).toEqual({
      llmConfigured: true,
      engine: 'local',
    });
    await context.close();
  });
});
