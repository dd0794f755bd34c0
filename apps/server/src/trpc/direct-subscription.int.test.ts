import { request, type IncomingMessage } from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../test/app.js';
import { captionLine } from '../test/fixtures.js';
import { MAX_UNSENT_EVENT_BYTES } from './direct-subscription.js';

const START = Date.UTC(2026, 10, 20, 15, 0);

/** One SSE event as tRPC's client reads it: its `event:` name (none for a value) and its `data:`. */
interface SseEvent {
  event: string | null;
  data: string;
}

function parseEvents(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice('event: '.length) ?? null;
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice('data: '.length)).join('\n');
      return { event, data };
    });
}

/** Opens a subscription the way the web app's EventSource does and hands over the raw response. */
function open(url: string, token?: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (token) headers.authorization = `Bearer ${token}`;
    request(url, { headers }, resolve).on('error', reject).end();
  });
}

/** Gathers a response's text as it arrives; `until` waits until it shows what is asked. */
function gather(response: IncomingMessage) {
  response.setEncoding('utf8');
  let text = '';
  let wake: (() => void) | null = null;
  response.on('data', (chunk: string) => {
    text += chunk;
    wake?.();
  });
  return {
    text: () => text,
    until: async (seen: (text: string) => boolean) => {
      while (!seen(text)) await new Promise<void>((resolve) => (wake = resolve));
    },
  };
}

const valuesIn = (text: string) => parseEvents(text).filter((e) => e.event === null);

/** Reads a response to its end. */
async function readAll(response: IncomingMessage): Promise<string> {
  response.setEncoding('utf8');
  let text = '';
  for await (const chunk of response) text += chunk as string;
  return text;
}

describe('subscriptions served as direct SSE routes (tRPC wire format)', () => {
  let app: TestApp;
  let token: string;
  let meetingKey: string;

  async function postLines(from: number, count: number, text: (n: number) => string): Promise<void> {
    const { status } = await app.rest('POST', '/v1/transcript/lines', {
      token,
      body: {
        meeting: { sessionId: 'direct-sse', meetCode: 'abc-defg-hij', startedAt: START },
        lines: Array.from({ length: count }, (_, k) => captionLine(START, `c${from + k}`, 0, text(from + k))),
      },
    });
    expect(status).toBe(200);
  }

  /** The bus listeners of the meeting's subscriptions still attached. */
  let listening = 0;

  beforeAll(async () => {
    app = await startTestApp();
    const bus = app.deps.events;
    const listen = bus.listen.bind(bus);
    vi.spyOn(bus, 'listen').mockImplementation((name, key, listener) => {
      const stop = listen(name, key, listener);
      if (name !== 'meeting.lines') return stop;
      listening += 1;
      return () => {
        listening -= 1;
        stop();
      };
    });
    token = await app.signIn('direct@example.com');
    await postLines(0, 1, (n) => `line ${n}`);
    const list = await app.rest<{ key: string }[]>('GET', '/v1/meeting-list', { token });
    meetingKey = list.body[0]!.key;
  });
  afterAll(async () => {
    await app?.close();
  });

  const linesUrl = (input: string | null) => `${app.url}/trpc/meeting.onLines${input === null ? '' : `?input=${encodeURIComponent(input)}`}`;

  it('answers a refused call as tRPC does: 200, connected, then a serialized-error with the shape of the error formatter', async () => {
    const cases: { url: string; signedIn: boolean; code: string; message: RegExp }[] = [
      { url: linesUrl(JSON.stringify({ meetingId: meetingKey })), signedIn: false, code: 'UNAUTHORIZED', message: /^Sign in required/ },
      { url: linesUrl(JSON.stringify({ meetingId: 'cm0000000000000000000000' })), signedIn: true, code: 'NOT_FOUND', message: /^Meeting not found$/ },
      { url: linesUrl('{not json'), signedIn: true, code: 'BAD_REQUEST', message: /JSON/ },
      { url: linesUrl(null), signedIn: true, code: 'BAD_REQUEST', message: /Invalid input/ },
    ];
    for (const c of cases) {
      const response = await open(c.url, c.signedIn ? token : undefined);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/event-stream');
      const events = parseEvents(await readAll(response));
      expect(events.map((e) => e.event)).toEqual(['connected', 'serialized-error']);
      const shape = JSON.parse(events[1]!.data) as { message: string; data: { code: string; httpStatus: number } };
      expect(shape.data.code).toBe(c.code);
      expect(shape.message).toMatch(c.message);
    }
  });

  it('refuses a batched subscription with a 400, as tRPC does', async () => {
    const response = await open(`${app.url}/trpc/meeting.onLines?batch=1&input=${encodeURIComponent('{}')}`, token);
    expect(response.statusCode).toBe(400);
    const body = JSON.parse(await readAll(response)) as { error: { data: { code: string } } }[];
    expect(body[0]?.error.data.code).toBe('BAD_REQUEST');
  });

  it('sends each line as a data event while the response stays open, and stops listening when the client leaves', async () => {
    const response = await open(linesUrl(JSON.stringify({ meetingId: meetingKey })), token);
    const stream = gather(response);
    await stream.until((text) => text.includes('event: connected'));
    expect(listening).toBe(1);
    await postLines(1, 2, (n) => `line ${n}`);
    await stream.until((text) => valuesIn(text).length === 2);
    const values = valuesIn(stream.text()).map((e) => JSON.parse(e.data) as { captionId: string; text: string });
    expect(values.map((v) => [v.captionId, v.text])).toEqual([
      ['c1', 'line 1'],
      ['c2', 'line 2'],
    ]);
    response.destroy();
    await expect.poll(() => listening).toBe(0);
  });

  it('sends connected only once the feed listens, so a client that then reads the lines before it misses none', async (context) => {
    if (!app.db.url) context.skip();
    // The feed checks the meeting is the caller's before it listens; a lock on the table holds that read.
    const locker = new pg.Client({ connectionString: app.db.url! });
    await locker.connect();
    let opened: Promise<{ response: IncomingMessage; stream: ReturnType<typeof gather> }>;
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE "Meeting" IN ACCESS EXCLUSIVE MODE');
      const early: { stream?: ReturnType<typeof gather> } = {};
      opened = open(linesUrl(JSON.stringify({ meetingId: meetingKey })), token).then((response) => {
        early.stream = gather(response);
        return { response, stream: early.stream };
      });
      // Closed also when an assertion fails, so the next test starts with no subscriber.
      context.onTestFinished(() => void opened.then(({ response }) => response.destroy()));
      const waiting = async () =>
        (await locker.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE relation = '"Meeting"'::regclass AND NOT granted`)).rows[0]!.n;
      await expect.poll(waiting).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(listening).toBe(0);
      expect(early.stream?.text() ?? '').not.toContain('event: connected');
    } finally {
      await locker.query('COMMIT');
      await locker.end();
    }
    const { response, stream } = await opened;
    await stream.until((text) => text.includes('event: connected'));
    expect(listening).toBe(1);
    await postLines(5, 1, (n) => `line ${n}`);
    await stream.until((text) => valuesIn(text).length === 1);
    expect((JSON.parse(valuesIn(stream.text())[0]!.data) as { captionId: string }).captionId).toBe('c5');
    response.destroy();
    await expect.poll(() => listening).toBe(0);
  });

  it(`lets go of a subscriber that falls more than ${MAX_UNSENT_EVENT_BYTES} bytes behind, so the server holds no more for it`, async () => {
    const response = await open(linesUrl(JSON.stringify({ meetingId: meetingKey })), token);
    response.pause();
    await expect.poll(() => listening).toBe(1);
    // 8 posts of 400 lines of 2,000 characters: 6.4 MB of events, more than the socket buffers and the limit.
    const long = (n: number) => `line ${n} ${'x'.repeat(2000)}`;
    for (let post = 0; post < 8; post += 1) await postLines(100 + post * 400, 400, long);
    await expect.poll(() => listening, { timeout: 10_000 }).toBe(0);
    // What was sent before the cut still arrives; the stream then stops without tRPC's `return`.
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    await new Promise<void>((resolve) => response.once('close', resolve).resume());
    const events = parseEvents(text);
    expect(events[0]?.event).toBe('connected');
    expect(events.filter((e) => e.event === null).length).toBeLessThan(8 * 400);
    expect(events.some((e) => e.event === 'return')).toBe(false);
  });
});
