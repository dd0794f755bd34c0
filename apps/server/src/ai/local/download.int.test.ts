import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tinyGguf } from '../../test/tiny-gguf.js';
import { downloadModel, type DownloadProgress } from './download.js';

// A real HTTP server serves the tiny GGUF with range requests; it can drop the connection halfway,
// ignore ranges, or claim a file larger than any disk.

const model = tinyGguf();
const sha256 = createHash('sha256').update(model).digest('hex');
let server: Server;
let url: string;
let dir: string;
let behaviour: { dropAfter?: number; drops: number; hugeLength?: boolean };
const ranges: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const range = request.headers.range;
    ranges.push(range);
    if (behaviour.hugeLength) {
      response.writeHead(200, { 'content-length': String(10 * 1024 ** 5) });
      response.end();
      return;
    }
    const start = range ? Number(/bytes=(\d+)-/.exec(range)![1]) : 0;
    if (start >= model.length) {
      response.writeHead(416, { 'content-range': `bytes */${model.length}` }).end();
      return;
    }
    const headers = { 'content-length': String(model.length - start), 'accept-ranges': 'bytes' };
    if (range) response.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${model.length - 1}/${model.length}` });
    else response.writeHead(200, headers);
    if (behaviour.dropAfter !== undefined && behaviour.drops > 0) {
      behaviour.drops--;
      // Half of what is left, then the connection is cut.
      response.write(model.subarray(start, start + behaviour.dropAfter), () => request.socket.destroy());
      return;
    }
    response.end(model.subarray(start));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tiny.gguf`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(async () => {
  behaviour = { drops: 0 };
  ranges.length = 0;
  dir = await mkdtemp(join(tmpdir(), 'mbox-download-'));
  return () => rm(dir, { recursive: true, force: true });
});

describe('downloading a model', () => {
  it('downloads, reports progress, checks the SHA-256 and names the file', async () => {
    const progress: DownloadProgress[] = [];
    const result = await downloadModel({ url, dir, file: 'tiny.gguf', sha256, onProgress: (p) => progress.push(p) });
    expect(result).toEqual({ path: join(dir, 'tiny.gguf'), bytes: model.length, sha256 });
    expect(await readFile(result.path)).toEqual(model);
    expect(progress.at(-1)).toEqual({ received: model.length, total: model.length });
    expect(await readdir(dir)).toEqual(['tiny.gguf']);
  });

  it('resumes with a range request when the connection drops halfway', async () => {
    behaviour = { dropAfter: Math.floor(model.length / 2), drops: 1 };
    const result = await downloadModel({ url, dir, file: 'tiny.gguf', sha256 });
    expect(result.sha256).toBe(sha256);
    // The second request asks for the rest, from the bytes that did arrive.
    expect(ranges).toHaveLength(2);
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(ranges[1]!)![1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThanOrEqual(Math.floor(model.length / 2));
    expect(await readFile(result.path)).toEqual(model);
  });

  it('resumes a part left by an earlier run (a restart)', async () => {
    await writeFile(join(dir, 'tiny.gguf.part'), model.subarray(0, 1000));
    await downloadModel({ url, dir, file: 'tiny.gguf', sha256 });
    expect(ranges).toEqual(['bytes=1000-']);
    expect(await readFile(join(dir, 'tiny.gguf'))).toEqual(model);
  });

  it('deletes a file whose SHA-256 is not the published one', async () => {
    const wrong = '0'.repeat(64);
    await expect(downloadModel({ url, dir, file: 'tiny.gguf', sha256: wrong })).rejects.toMatchObject({
      reason: 'checksum',
      message: expect.stringContaining(`not the published ${wrong}`),
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a file larger than the free disk space before writing anything', async () => {
    behaviour = { drops: 0, hugeLength: true };
    await expect(downloadModel({ url, dir, file: 'huge.gguf' })).rejects.toMatchObject({ reason: 'disk', message: expect.stringMatching(/needs .* GB more disk space/) });
    expect(await readdir(dir)).toEqual([]);
  });

  it('stops when cancelled and keeps the part for the next attempt', async () => {
    behaviour = { dropAfter: 2000, drops: 1 };
    const cancel = new AbortController();
    const download = downloadModel({ url, dir, file: 'tiny.gguf', signal: cancel.signal, onProgress: (p) => p.received > 0 && cancel.abort() });
    await expect(download).rejects.toMatchObject({ reason: 'cancelled' });
    expect((await readdir(dir)).filter((f) => f === 'tiny.gguf')).toEqual([]);
  });

  it('writes only plain .gguf names inside LOCAL_MODEL_DIR', async () => {
    for (const file of ['../escape.gguf', 'sub/model.gguf', '.hidden.gguf', 'model.bin']) {
      await expect(downloadModel({ url, dir, file })).rejects.toMatchObject({ reason: 'file' });
    }
    await expect(downloadModel({ url: 'file:///etc/passwd', dir, file: 'x.gguf' })).rejects.toMatchObject({ reason: 'url' });
  });
});
