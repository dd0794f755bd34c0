import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { inflateSync } from 'node:zlib';
import { marked, type Tokens } from 'marked';
import SrtParser from 'srt-parser-2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINES_PER_BATCH, meetingDetailSchema, meetingExportSchema, summaryListSchema } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium, seedMeeting } from '../../test/fixtures.js';
import { WebSession } from '../../test/web-session.js';
import { escapeMarkdown } from './formats/markdown.js';

const run = promisify(execFile);

const START = Date.UTC(2026, 10, 20, 15, 0);
const TITLE = 'Café sync — планёрка';
const LINES = [
  { speaker: 'Ana López', text: 'Good morning, everyone.', at: 0 },
  { speaker: 'Борис', text: 'Привет всем, начинаем планёрку.', at: 4_000 },
  { speaker: 'Ana López', text: 'Καλημέρα! The *export* [draft] is <ready>.', at: 9_500 },
  // Answered at once: the cue ends when the answer starts.
  { speaker: 'Chloé', text: 'Crème brûlée for the retro?', at: 30_000 },
  { speaker: 'Борис', text: 'Да.', at: 30_400 },
  { speaker: 'Ana López', text: 'Then we ship on Friday.', at: 95_000 },
];
const SUMMARY_HTML =
  '<h2>Decisions</h2><ul><li>Ship <strong>export</strong> on Friday</li><li>Write the docs</li></ul>' +
  '<p>Next review: <em>Monday</em>.</p><ol><li>Draft</li><li>Review</li></ol>';

interface ApiError {
  message: string;
  data: { httpStatus: number; field?: string };
}

/** Pixels of an 8-bit, non-interlaced grey or RGB PNG (what pdftoppm writes), decoded by hand. */
function pngPixels(png: Buffer): { width: number; height: number; channels: number; pixels: Buffer } {
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const colourType = body[9];
      if (body[8] !== 8 || body[12] !== 0 || (colourType !== 0 && colourType !== 2)) throw new Error('unexpected PNG kind');
      channels = colourType === 2 ? 3 : 1;
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const up = y ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = y && x >= channels ? pixels[(y - 1) * stride + x - channels]! : 0;
      const paeth = () => {
        const p = left + up - upLeft;
        const [a, b, c] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        return a <= b && a <= c ? left : b <= c ? up : upLeft;
      };
      const predictor = [0, left, up, (left + up) >> 1, filter === 4 ? paeth() : 0][filter ?? 0] ?? 0;
      pixels[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** Size of a page image and how many of its pixels are darker than light grey. */
async function inkOf(file: string): Promise<{ width: number; height: number; inked: number }> {
  const { width, height, channels, pixels } = pngPixels(await readFile(file));
  let inked = 0;
  for (let i = 0; i < pixels.length; i += channels) if (pixels[i]! < 200) inked++;
  return { width, height, inked };
}

describe('meeting export', () => {
  let app: TestApp;
  let ana: string;
  let meetingKey: string;
  let tmp: string;

  const download = async (format: string, options: { token?: string; key?: string; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? ana : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    return fetch(`${app.url}/v1/meeting/${options.key ?? meetingKey}/export?format=${format}`, { headers });
  };

  beforeAll(async () => {
    app = await startTestApp();
    ana = await app.signIn('ana@example.com');
    await app.rest('PUT', '/v1/user-settings', { token: ana, body: { timezone: 'Europe/Berlin' } });
    const ingest = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
      token: ana,
      body: {
        meeting: { sessionId: 'export', meetCode: 'abc-defg-hij', startedAt: START, title: TITLE, participants: ['Ana López', 'Борис', 'Chloé'] },
        lines: LINES.map((line, i) => ({ captionId: `c${i}`, revision: 0, speaker: line.speaker, text: line.text, spokenAt: START + line.at, final: true })),
      },
    });
    expect(ingest.status).toBe(200);
    meetingKey = ingest.body.meetingKey;
    await app.rest('POST', '/v1/transcript/end', { token: ana, body: { sessionId: 'export', finishedAt: START + 42 * 60_000 } });
    await app.deps.db.summary.create({ data: { meetingId: meetingKey, promptKey: 'summary', type: 'summary', title: 'Summary', text: SUMMARY_HTML } });
    tmp = await mkdtemp(path.join(os.tmpdir(), 'mbox-export-'));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
    await app.close();
  });

  it('Markdown: title, facts, each summary as headings and lists, every line as **Speaker** (hh:mm): text', async () => {
    const response = await download('md');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Cafe sync _ _-2026-11-20.md"; filename*=UTF-8''${encodeURIComponent(`${TITLE}-2026-11-20.md`)}`,
    );
    const md = await response.text();
    const tokens = marked.lexer(md);
    const headings = tokens.filter((t): t is Tokens.Heading => t.type === 'heading').map((t) => [t.depth, t.text]);
    expect(headings).toEqual([
      [1, TITLE],
      [2, 'Summaries'],
      [3, 'Summary'],
      [4, 'Decisions'],
      [2, 'Transcript'],
    ]);
    const lists = tokens.filter((t): t is Tokens.List => t.type === 'list');
    // The facts, then the summary's bullet and numbered lists.
    expect(lists[0]!.items.map((i) => i.text)).toEqual([
      '**Date:** Friday, November 20, 2026, 16:00 (Europe/Berlin)',
      '**Duration:** 42 minutes',
      '**Participants:** Ana López, Борис, Chloé',
    ]);
    expect(lists[1]!.ordered).toBe(false);
    expect(lists[1]!.items.map((i) => i.text)).toEqual(['Ship **export** on Friday', 'Write the docs']);
    expect(lists[2]!.ordered).toBe(true);
    expect(lists[2]!.items.map((i) => i.text)).toEqual(['Draft', 'Review']);
    expect(md).toContain('Next review: *Monday*.');
    // Every line, in order, in the zone of the owner (Berlin: UTC+1 in November).
    const transcript = md.slice(md.indexOf('## Transcript'));
    const expected = LINES.map((line) => {
      const clock = new Date(START + line.at).toLocaleTimeString('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' });
      return `**${escapeMarkdown(line.speaker)}** (${clock}): ${escapeMarkdown(line.text)}`;
    });
    expect(transcript.split('\n\n').slice(1).map((l) => l.trim())).toEqual(expected);
    // The escaped line reads back as the text spoken, not as markup.
    const html = await marked.parse(transcript);
    expect(html).toContain('The *export* [draft] is &lt;ready&gt;.');
  });

  it('shows citations as the times of their lines and unsupported points as such, in Markdown, text and PDF', async () => {
    const cited = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
      token: ana,
      body: {
        meeting: { sessionId: 'export-cited', meetCode: 'abc-defg-hij', startedAt: START },
        lines: LINES.map((line, i) => ({ captionId: `c${i}`, revision: 0, speaker: line.speaker, text: line.text, spokenAt: START + line.at, final: true })),
      },
    });
    const key = cited.body.meetingKey;
    const { messages } = await app.deps.db.meeting.findUniqueOrThrow({ where: { id: key }, include: { messages: { orderBy: { spokenAt: 'asc' } } } });
    const citation = (n: number, i: number) => ({ n, messageId: messages[i]!.id, spokenAt: START + LINES[i]!.at, speaker: LINES[i]!.speaker });
    await app.deps.db.summary.create({
      data: {
        meetingId: key,
        promptKey: 'decision',
        title: 'Key decisions',
        text:
          '<ul><li>Ship on Friday<sup class="cite" data-cite="1,2">[1, 2]</sup></li>' +
          '<li>Bob pays 40 euros<sup class="cite" data-cite="2,7">[2, 7]</sup><small class="unsupported" data-missing="Bob; 40 euros">not found in the transcript</small></li></ul>',
        citations: [citation(1, 0), citation(2, 5)],
      },
    });
    // Berlin: the lines at 15:00 and 15:01:35 UTC are 16:00 and 16:01; number 7 is no line and is left out.
    const md = await (await download('md', { key })).text();
    const items = marked.lexer(md).filter((t): t is Tokens.List => t.type === 'list')[1]!.items.map((i) => i.text);
    expect(items).toEqual(['Ship on Friday \\[16:00, 16:01\\]', 'Bob pays 40 euros \\[16:01\\] *(not found in the transcript)*']);
    const text = await (await download('txt', { key })).text();
    expect(text).toContain('Ship on Friday [16:00, 16:01]');
    expect(text).toContain('Bob pays 40 euros [16:01] (not found in the transcript)');
    const file = path.join(tmp, 'cited.pdf');
    await writeFile(file, Buffer.from(await (await download('pdf', { key })).arrayBuffer()));
    const { stdout: pdf } = await run('pdftotext', [file, '-']);
    expect(pdf).toContain('Ship on Friday [16:00, 16:01]');
    expect(pdf).toContain('Bob pays 40 euros [16:01] (not found in the transcript)');
  });

  it('plain text: facts, summaries and one [hh:mm] Speaker: text line per line', async () => {
    const response = await download('txt');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(text.startsWith(`${TITLE}\n`)).toBe(true);
    expect(text).toContain('Duration: 42 minutes');
    expect(text).toContain('Decisions\n---------\n\n- Ship export on Friday\n- Write the docs');
    expect(text).toContain('1. Draft\n2. Review');
    expect(text).toContain('[16:00] Борис: Привет всем, начинаем планёрку.');
    expect(text.trimEnd().split('\n').slice(-LINES.length)).toEqual(
      LINES.map((l) => `[${l.at < 60_000 ? '16:00' : '16:01'}] ${l.speaker}: ${l.text}`),
    );
  });

  it('SRT: one numbered cue per line, times from the start, ends capped by the next line or reading time', async () => {
    const response = await download('srt');
    expect(response.headers.get('content-type')).toBe('application/x-subrip; charset=utf-8');
    expect(response.headers.get('content-disposition')).toContain('-2026-11-20.srt');
    const srt = await response.text();
    const cues = new SrtParser().fromSrt(srt);
    expect(cues.map((c) => c.id)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(cues.map((c) => c.text)).toEqual(LINES.map((l) => `${l.speaker}: ${l.text}`));
    expect(cues.map((c) => c.startTime)).toEqual(['00:00:00,000', '00:00:04,000', '00:00:09,500', '00:00:30,000', '00:00:30,400', '00:01:35,000']);
    // Until the next line starts, or for the reading time (0.5 s + 65 ms a character, 1 to 7 s) if that is sooner.
    const reading = (text: string) => Math.min(7, Math.max(1, 0.5 + 0.065 * text.length));
    const ends = LINES.map((line, i) => {
      const next = LINES[i + 1]?.at;
      const own = line.at / 1000 + reading(line.text);
      return next !== undefined && next > line.at ? Math.min(next / 1000, own) : own;
    });
    cues.forEach((cue, i) => expect(cue.endSeconds).toBeCloseTo(ends[i]!, 3));
    // A long pause does not keep the cue up; a quick answer ends it.
    expect(cues[2]!.endSeconds).toBeLessThan(30);
    expect(cues[3]!.endTime).toBe('00:00:30,400');
    for (const cue of cues) expect(cue.endSeconds).toBeGreaterThan(cue.startSeconds);
    expect(srt).toMatch(/^1\n00:00:00,000 --> 00:00:01,995\nAna López: Good morning, everyone\.\n\n2\n00:00:04,000 --> /);
  });

  it('WebVTT: the header, numbered cues with HH:MM:SS.mmm and a voice tag per speaker', async () => {
    const response = await download('vtt');
    expect(response.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    const vtt = await response.text();
    expect(vtt.startsWith(`WEBVTT - ${TITLE}\n\n1\n00:00:00.000 --> 00:00:01.995\n<v Ana López>Good morning, everyone.\n`)).toBe(true);
    const cues = new SrtParser().fromSrt(vtt);
    expect(cues).toHaveLength(LINES.length);
    expect(cues.map((c) => c.startSeconds)).toEqual(LINES.map((l) => l.at / 1000));
    const voices = cues.map((c) => /^<v ([^>]+)>(.*)$/.exec(c.text)?.slice(1));
    expect(voices[1]).toEqual(['Борис', 'Привет всем, начинаем планёрку.']);
    // Markup characters of the text are escaped, so the cue shows them.
    expect(voices[2]).toEqual(['Ana López', 'Καλημέρα! The *export* [draft] is &lt;ready&gt;.']);
  });

  it('JSON: the meeting and summaries exactly as their /v1 calls answer them', async () => {
    const response = await download('json');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body: unknown = await response.json();
    const parsed = meetingExportSchema.parse(body);
    expect(meetingDetailSchema.strict().parse(parsed.meeting)).toBeTruthy();
    expect(summaryListSchema.parse(parsed.summaries)).toBeTruthy();
    const detail = await app.rest('GET', `/v1/meeting/${meetingKey}`, { token: ana });
    const summaries = await app.rest('GET', `/v1/summary-list/${meetingKey}`, { token: ana });
    expect(body).toEqual({ meeting: detail.body, summaries: summaries.body });
  });

  it('PDF: text with its title, a Cyrillic line and a speaker, and a first page that is not blank', async () => {
    const response = await download('pdf');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toContain('-2026-11-20.pdf');
    const file = path.join(tmp, 'meeting.pdf');
    await writeFile(file, Buffer.from(await response.arrayBuffer()));
    const { stdout: text } = await run('pdftotext', ['-layout', file, '-']);
    expect(text).toContain(TITLE);
    expect(text).toContain('Привет всем, начинаем планёрку.');
    expect(text).toContain('Καλημέρα!');
    expect(text).toContain('Борис');
    expect(text).toContain('Ship export on Friday');
    expect(text).toMatch(/page 1/);
    await run('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', file, path.join(tmp, 'page')]);
    const { width, height, inked } = await inkOf(path.join(tmp, 'page-1.png'));
    expect(width).toBeGreaterThan(300);
    // A page of text at 50 dpi: thousands of dark pixels, far from all of them.
    expect(inked).toBeGreaterThan(2_000);
    expect(inked).toBeLessThan((width * height) / 4);
  });

  it('signs in by the session cookie as the web app does, so a plain link downloads', async () => {
    const web = new WebSession(app.url);
    const signIn = await web.mutate('auth.signIn', { email: 'ana@example.com' });
    expect(signIn.status).toBe(200);
    const response = await web.request<unknown>('GET', `/v1/meeting/${meetingKey}/export?format=json`);
    expect(response.status).toBe(200);
    expect(meetingExportSchema.parse(response.body).meeting.meet.key).toBe(meetingKey);
    // Without any credentials: 401.
    const anonymous = await download('md', { token: '' });
    expect(anonymous.status).toBe(401);
  });

  it("refuses extension tokens, another user's meeting and unknown formats", async () => {
    const extension = await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token: ana });
    const refused = await download('md', { token: extension.body.token });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as ApiError).message).toMatch(/Extension tokens/);

    const bo = await app.signIn('bo@example.com');
    for (const format of ['md', 'pdf']) {
      const foreign = await download(format, { token: bo });
      expect(foreign.status).toBe(404);
      expect(((await foreign.json()) as ApiError).message).toBe('Meeting not found');
    }
    expect((await download('md', { key: 'no-such-meeting' })).status).toBe(404);

    for (const format of ['docx', '', 'PDF']) {
      const bad = await download(format);
      expect(bad.status).toBe(400);
      const body = (await bad.json()) as ApiError;
      expect(body.data.field).toBe('format');
      expect(body.message).toContain('format: must be one of md, txt, srt, vtt, json, pdf');
    }
    const missing = await fetch(`${app.url}/v1/meeting/${meetingKey}/export`, { headers: { authorization: `Bearer ${ana}` } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as ApiError).data.field).toBe('format');
  });

  it('exports an encrypted meeting as the owner sees it in the app, opened with the server key', async () => {
    const cy = await app.signIn('cy@example.com');
    await makePremium(app, 'cy@example.com');
    const { meetingKey: key } = await seedMeeting(app, cy, 'sealed', [
      { speaker: 'Cy', text: 'Секретный план: запуск в пятницу.' },
      { speaker: 'Dee', text: 'Only we know.' },
    ]);
    expect((await app.rest('PUT', `/v1/p/meeting/encrypt/${key}`, { token: cy })).status).toBe(200);
    const stored = await app.deps.db.message.findMany({ where: { meetingId: key } });
    expect(stored.every((m) => m.encrypted && !m.text.includes('план'))).toBe(true);
    const md = await (await download('md', { token: cy, key })).text();
    expect(md).toContain('Секретный план: запуск в пятницу.');
    const json = meetingExportSchema.parse(await (await download('json', { token: cy, key })).json());
    expect(json.meeting).toEqual((await app.rest('GET', `/v1/meeting/${key}`, { token: cy })).body);
    expect(json.meeting.messages.map((m) => m.text)).toEqual(['Секретный план: запуск в пятницу.', 'Only we know.']);
  });

  it('is described in the OpenAPI document with its parameters, file types, security and errors', async () => {
    const document = (await (await fetch(`${app.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, { get?: { security: unknown; parameters: { name: string; schema: { enum?: string[] } }[]; responses: Record<string, { content?: object }> } }>;
    };
    const operation = document.paths['/meeting/{id}/export']?.get;
    expect(operation?.security).toEqual([{ bearer: [] }]);
    expect(operation?.parameters.map((p) => p.name)).toEqual(['id', 'format']);
    expect(operation?.parameters[1]?.schema.enum).toEqual(['md', 'txt', 'srt', 'vtt', 'json', 'pdf']);
    expect(Object.keys(operation?.responses['200']?.content ?? {})).toEqual([
      'text/markdown',
      'text/plain',
      'application/x-subrip',
      'text/vtt',
      'application/json',
      'application/pdf',
    ]);
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['400', '401', '403', '404', '429', '500']));
  });

  it('a 10,000-line meeting: the PDF streams out while other requests are answered; text formats go compressed', async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => ({
      captionId: `l${i}`,
      revision: 0,
      speaker: ['Ana López', 'Борис', 'Chloé'][i % 3]!,
      text: `Line ${i + 1}: ${i % 2 ? 'обсуждаем экспорт в формате PDF' : 'we walk through the export once more'}, with enough words to wrap.`,
      spokenAt: START + i * 1000,
      final: true,
    }));
    let key = '';
    for (let from = 0; from < lines.length; from += MAX_LINES_PER_BATCH) {
      const { body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
        token: ana,
        body: { meeting: { sessionId: 'long', meetCode: 'abc-defg-hij', startedAt: START, title: 'Long meeting' }, lines: lines.slice(from, from + MAX_LINES_PER_BATCH) },
      });
      key = body.meetingKey;
    }

    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const response = await download('pdf', { key });
    expect(response.status).toBe(200);
    // Health checks keep being answered while the PDF is written.
    const reader = response.body!.getReader();
    let bytes = 0;
    let firstChunkMs = 0;
    const probes: number[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!bytes) firstChunkMs = performance.now() - started;
      bytes += value.byteLength;
      if (probes.length < 5 && bytes > 200_000 * (probes.length + 1)) {
        const probeStart = performance.now();
        expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
        probes.push(performance.now() - probeStart);
      }
    }
    delay.disable();
    const totalMs = performance.now() - started;
    console.info(
      `10,000-line PDF: ${(bytes / 1e6).toFixed(1)} MB in ${totalMs.toFixed(0)} ms, first bytes after ${firstChunkMs.toFixed(0)} ms, ` +
        `event loop delay max ${(delay.max / 1e6).toFixed(0)} ms p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms, health probes ${probes.map((p) => p.toFixed(0)).join('/')} ms`,
    );
    expect(firstChunkMs).toBeLessThan(totalMs / 2);
    expect(probes.length).toBeGreaterThan(0);
    const file = path.join(tmp, 'long.pdf');
    await writeFile(file, Buffer.from(await (await download('pdf', { key })).arrayBuffer()));
    const { stdout: info } = await run('pdfinfo', [file]);
    const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
    expect(pages).toBeGreaterThan(100);
    const { stdout: last } = await run('pdftotext', ['-f', String(pages), '-l', String(pages), file, '-']);
    expect(last).toContain('Line 10000');
    expect(last).toContain(`page ${pages}`);
    // Pages that open in the middle of a line are written too (each page opens with its footer).
    await run('pdftoppm', ['-png', '-r', '50', '-f', '2', '-l', '3', file, path.join(tmp, 'long')]);
    for (const page of ['long-002.png', 'long-003.png']) expect((await inkOf(path.join(tmp, page))).inked).toBeGreaterThan(2_000);

    const srt = await download('srt', { key, headers: { 'accept-encoding': 'gzip' } });
    expect(srt.headers.get('content-encoding')).toBe('gzip');
    expect(new SrtParser().fromSrt(await srt.text())).toHaveLength(10_000);
  }, 120_000);
});
