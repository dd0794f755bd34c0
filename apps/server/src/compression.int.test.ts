import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test/app.js';

const START = Date.UTC(2026, 10, 20, 15, 0);

/** A GET as a browser sends it, read raw: no client-side decoding hides what the server sent. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('response compression', () => {
  let app: TestApp;
  let dir: string;
  let token: string;
  let meetingKey: string;
  const appJs = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i}`))};\n`;
  /** Bytes that do not shrink, as a packed asset's would not. */
  const zipBytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251));

  async function postLines(from: number, count: number): Promise<void> {
    const { status } = await app.rest('POST', '/v1/transcript/lines', {
      token,
      body: {
        meeting: { sessionId: 'compress', meetCode: 'abc-defg-hij', startedAt: START },
        lines: Array.from({ length: count }, (_, k) => ({
          captionId: `c${from + k}`,
          revision: 0,
          speaker: 'Ana',
          text: `line ${from + k}: what we agreed on the roadmap, said again so the body is long enough`,
          spokenAt: START + (from + k) * 1000,
          final: true,
        })),
      },
    });
    expect(status).toBe(200);
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mbox-compress-'));
    await mkdir(join(dir, 'web/assets'), { recursive: true });
    await mkdir(join(dir, 'zip'));
    await writeFile(join(dir, 'web/index.html'), `<!doctype html><title>Mbox</title>${'<p>shell</p>'.repeat(200)}`);
    await writeFile(join(dir, 'web/assets/app-1234.js'), appJs);
    await writeFile(join(dir, 'zip/mbox-extension-1.0.0.zip'), zipBytes);
    app = await startTestApp({}, { webDist: join(dir, 'web'), extensionZipDir: join(dir, 'zip') });
    token = await app.signIn('ana@example.com');
    await postLines(0, 40);
    const list = await app.rest<{ key: string }[]>('GET', '/v1/meeting-list', { token });
    meetingKey = list.body[0]!.key;
  });
  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('compresses JSON above 1 kB as the client accepts; it decodes to the same body and keeps no-store', async () => {
    const url = `${app.url}/v1/meeting/${meetingKey}`;
    const auth = { authorization: `Bearer ${token}` };
    const plain = await rawGet(url, auth);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const gzip = await rawGet(url, { ...auth, 'accept-encoding': 'gzip' });
    const br = await rawGet(url, { ...auth, 'accept-encoding': 'gzip, deflate, br' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
    expect(gzip.body.length).toBeLessThan(plain.body.length / 3);
    for (const answer of [gzip, br]) {
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('compresses the grouped list, which its direct route answers as JSON text, the same way', async () => {
    const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'ana@example.com' } });
    await app.deps.db.meeting.createMany({
      data: Array.from({ length: 20 }, (_, i) => ({ userId: user.id, sessionId: `list-${i}`, meetCode: 'abc-defg-hij', startedAt: new Date(START - i * 86_400_000) })),
    });
    const url = `${app.url}/v1/meeting-list/grouped`;
    const auth = { authorization: `Bearer ${token}` };
    const plain = await rawGet(url, auth);
    const gzip = await rawGet(url, { ...auth, 'accept-encoding': 'gzip' });
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
    // One group a day: the 'compress' meeting shares the first.
    expect(JSON.parse(plain.body.toString('utf8')).groups).toHaveLength(20);
  });

  it('compresses the tRPC answers the web app reads the same way', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const trpc = await rawGet(`${app.url}/trpc/meeting.get?input=${encodeURIComponent(JSON.stringify({ id: meetingKey }))}`, {
      ...auth,
      'accept-encoding': 'gzip',
    });
    expect(trpc.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(trpc.body).toString('utf8')).result.data.messages).toHaveLength(40);
  });

  it('leaves bodies of 1 kB and less uncompressed', async () => {
    const small = await rawGet(`${app.url}/v1/meeting/${meetingKey}/events`, { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, br' });
    expect(small.status).toBe(200);
    expect(small.body.toString('utf8')).toBe('[]');
    expect(small.headers['content-encoding']).toBeUndefined();
    const health = await rawGet(`${app.url}/healthz`, { 'accept-encoding': 'gzip' });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString('utf8'))).toMatchObject({ ok: true });
  });

  it('compresses the web app once, keeps its caching, and leaves packed files as they are', async () => {
    const asset = await rawGet(`${app.url}/assets/app-1234.js`, { 'accept-encoding': 'gzip' });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(asset.body).toString('utf8')).toBe(appJs);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const shell = await rawGet(`${app.url}/`, { 'accept-encoding': 'br' });
    expect(shell.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(shell.body).toString('utf8')).toMatch(/^<!doctype html><title>Mbox<\/title>/);
    const zip = await rawGet(`${app.url}/extension/mbox-extension.zip`, { 'accept-encoding': 'gzip, br' });
    expect(zip.status).toBe(200);
    expect(zip.headers['content-encoding']).toBeUndefined();
    expect(zip.body.equals(zipBytes)).toBe(true);
  });

  it('streams a subscription event by event, uncompressed, to a client that accepts gzip', async () => {
    const input = encodeURIComponent(JSON.stringify({ meetingId: meetingKey }));
    const received: string[] = [];
    let wake: (() => void) | null = null;
    const stream = request(`${app.url}/trpc/meeting.onLines?input=${input}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'accept-encoding': 'gzip, br' },
    });
    const response = new Promise<IncomingHttpHeaders>((resolve, reject) => {
      stream.on('response', (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          received.push(chunk);
          wake?.();
        });
        resolve(res.headers);
      });
      stream.on('error', reject);
    });
    stream.end();
    const until = async (seen: (text: string) => boolean) => {
      while (!seen(received.join(''))) await new Promise<void>((resolve) => (wake = resolve));
    };
    try {
      const headers = await response;
      expect(headers['content-type']).toMatch(/^text\/event-stream/);
      expect(headers['content-encoding']).toBeUndefined();
      await until((text) => text.includes('connected'));
      // Each line arrives while the response is still open: nothing holds events back to compress them.
      await postLines(100, 1);
      await until((text) => text.includes('line 100:'));
      expect(received.join('')).not.toContain('line 101:');
      await postLines(101, 1);
      await until((text) => text.includes('line 101:'));
    } finally {
      stream.destroy();
    }
  });
});
