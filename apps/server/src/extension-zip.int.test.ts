import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test/app.js';

/** GET /extension/mbox-extension.zip: the extension package `npm run build` leaves in apps/extension/dist-zip. */
describe('extension package download', () => {
  let dir: string;
  let built: TestApp;
  let unbuilt: TestApp;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mbox-zip-'));
    await writeFile(path.join(dir, 'mbox-extension-1.2.3.zip'), Buffer.from('PK\u0005\u0006 zip bytes'));
    await writeFile(path.join(dir, 'notes.txt'), 'not the package');
    [built, unbuilt] = await Promise.all([
      startTestApp({}, { extensionZipDir: dir }),
      startTestApp({}, { extensionZipDir: path.join(dir, 'missing') }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([built?.close(), unbuilt?.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the built package as a download under its versioned name', async () => {
    const response = await fetch(`${built.url}/extension/mbox-extension.zip`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="mbox-extension-1.2.3.zip"');
    expect(Buffer.from(await response.arrayBuffer()).toString()).toBe('PK\u0005\u0006 zip bytes');
  });

  it('answers 404 naming the fix when the package is not built', async () => {
    const response = await unbuilt.rest<{ message: string }>('GET', '/extension/mbox-extension.zip');
    expect(response.status).toBe(404);
    expect(response.body.message).toBe('The extension package is not built on this server: run npm run build');
  });
});
