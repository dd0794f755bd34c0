import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAILY_LIMIT_REACHED, SUMMARIZER_DAILY_LIMIT, type SummarizeResult, type SummarizeStreamEvent } from '@mbox/shared';
import { buildApp } from '../../app.js';
import { Jobs } from '../../jobs/jobs.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium } from '../../test/fixtures.js';
import { SUMMARIZER_KIND } from '../ai-usage/service.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../test/openai-server.js';
import { startFakeYouTube, startPageServer, type LocalServer } from '../../test/page-servers.js';

const TEXT = [
  'The library will extend its opening hours from next month and stay open until nine in the evening.',
  'A survey of six hundred readers showed that most of them could only visit after work.',
  'The extra hours cost forty thousand dollars a year, paid from the reserve fund.',
  'Two new staff members will be hired, and volunteers will run the reading club on Thursdays.',
].join('\n');

const VIDEO = 'libraryTalk';

/** Everything a stream sends until it ends (done or error). */
function collect(app: TestApp, token: string | undefined, input: { mode: 'summary' | 'youtube'; request: { text?: string; link?: string } }) {
  return new Promise<SummarizeStreamEvent[]>((resolve, reject) => {
    const events: SummarizeStreamEvent[] = [];
    const sub = app.trpc(token).tools.summarizeStream.subscribe(input, {
      onData: (event) => {
        events.push(event);
        if (event.type === 'done' || event.type === 'error') {
          sub.unsubscribe();
          resolve(events);
        }
      },
      onError: (error) => {
        sub.unsubscribe();
        reject(error);
      },
    });
  });
}

/** A REST call from a given client address (TRUST_PROXY: the server reads X-Forwarded-For as a proxy's). */
async function post(app: TestApp, path: string, body: unknown, options: { token?: string; ip?: string } = {}) {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.ip ? { 'x-forwarded-for': options.ip } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { result?: SummarizeResult; error?: string; message?: string } };
}

describe('summarizer daily limits and streaming (offline engine)', () => {
  let app: TestApp;
  let youtube: LocalServer;
  let pages: LocalServer;
  beforeAll(async () => {
    youtube = await startFakeYouTube({
      [VIDEO]: {
        title: 'Library Hours Explained',
        author: 'City Library',
        lengthSeconds: 95,
        captions: TEXT.split('\n').map((line, i) => [i * 5, 5, line]),
      },
    });
    pages = await startPageServer();
    app = await startTestApp({ YOUTUBE_BASE_URL: youtube.url, SUMMARIZER_ALLOWED_HOSTS: [pages.host], TRUST_PROXY: 1 });
  });
  afterAll(async () => {
    await app.close();
    await youtube.close();
    await pages.close();
  });

  it(`allows ${SUMMARIZER_DAILY_LIMIT} public summaries a day per client address, then answers 429 'Daily limit reached'`, async () => {
    for (let i = 0; i < SUMMARIZER_DAILY_LIMIT; i++) {
      const path = i % 2 ? '/v1/public/utils/youtube' : '/v1/public/utils/summary';
      const body = i % 2 ? { link: `https://youtu.be/${VIDEO}` } : { text: TEXT };
      expect((await post(app, path, body, { ip: '203.0.113.7' })).status, `call ${i + 1}`).toBe(200);
    }
    const over = await post(app, '/v1/public/utils/youtube', { link: `https://youtu.be/${VIDEO}` }, { ip: '203.0.113.7' });
    expect(over.status).toBe(429);
    expect(over.body.error).toBe(DAILY_LIMIT_REACHED);
    expect((await post(app, '/v1/public/utils/summary', { text: TEXT }, { ip: '203.0.113.7' })).status).toBe(429);
    // Another address has its own count.
    expect((await post(app, '/v1/public/utils/summary', { text: TEXT }, { ip: '198.51.100.20' })).status).toBe(200);
    const rows = await app.deps.db.dailyUsage.findMany({ where: { kind: SUMMARIZER_KIND }, orderBy: { subject: 'asc' } });
    expect(rows.map((r) => [r.subject, r.count])).toEqual([
      ['ip:198.51.100.20', 1],
      ['ip:203.0.113.7', SUMMARIZER_DAILY_LIMIT],
    ]);
  });

  it('ignores a forged X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const direct = await startTestApp({ TRUST_PROXY: false });
    try {
      for (let i = 0; i < SUMMARIZER_DAILY_LIMIT; i++) {
        // A new made-up address on every call: without a trusted proxy they all count for the socket's address.
        expect((await post(direct, '/v1/public/utils/summary', { text: TEXT }, { ip: `192.0.2.${i + 1}` })).status).toBe(200);
      }
      expect((await post(direct, '/v1/public/utils/summary', { text: TEXT }, { ip: '192.0.2.99' })).status).toBe(429);
      const rows = await direct.deps.db.dailyUsage.findMany({ where: { kind: SUMMARIZER_KIND } });
      expect(rows.map((r) => r.subject)).toEqual(['ip:127.0.0.1']);
    } finally {
      await direct.close();
    }
  });

  it('counts an IPv6 client by its /64, as the burst limit does: rotating addresses inside it gains nothing', async () => {
    for (let i = 0; i < SUMMARIZER_DAILY_LIMIT; i++) {
      const ip = `2001:db8:aa:bb:${(i + 1).toString(16)}::${i + 7}`;
      expect((await post(app, '/v1/public/utils/summary', { text: TEXT }, { ip })).status, ip).toBe(200);
    }
    const over = await post(app, '/v1/public/utils/summary', { text: TEXT }, { ip: '2001:db8:aa:bb:ffff:1:2:3' });
    expect(over.status).toBe(429);
    expect(over.body.error).toBe(DAILY_LIMIT_REACHED);
    // The streamed summary counts the same way.
    const stream = await fetch(
      `${app.url}/trpc/tools.summarizeStream?input=${encodeURIComponent(JSON.stringify({ mode: 'summary', request: { text: TEXT } }))}`,
      { headers: { 'x-forwarded-for': '2001:db8:aa:bb:9::9' } },
    );
    expect(await stream.text()).toContain(DAILY_LIMIT_REACHED);
    // The next /64 is another client.
    expect((await post(app, '/v1/public/utils/summary', { text: TEXT }, { ip: '2001:db8:aa:bc::1' })).status).toBe(200);
    const subjects = (await app.deps.db.dailyUsage.findMany({ where: { subject: { startsWith: 'ip:2001' } } })).map((r) => [r.subject, r.count]);
    expect(subjects.sort()).toEqual([
      ['ip:2001:db8:aa:bb::', SUMMARIZER_DAILY_LIMIT],
      ['ip:2001:db8:aa:bc::', 1],
    ]);
  });

  it('behind one proxy (TRUST_PROXY=1) takes the address the proxy saw, not one the client wrote in front of it', async () => {
    for (let i = 0; i < SUMMARIZER_DAILY_LIMIT; i++) {
      // The proxy appends the peer it saw (198.18.0.5); whatever the client sent before that is its own claim.
      const ip = `192.0.2.${i + 1}, 198.18.0.5`;
      expect((await post(app, '/v1/public/utils/summary', { text: TEXT }, { ip })).status, ip).toBe(200);
    }
    expect((await post(app, '/v1/public/utils/summary', { text: TEXT }, { ip: '192.0.2.200, 198.18.0.5' })).status).toBe(429);
    expect(await app.deps.db.dailyUsage.count({ where: { subject: { startsWith: 'ip:192.0.2.' } } })).toBe(0);
  });

  it('keeps counting across a server restart: the count lives in the database', async () => {
    // A second server on the same database: nothing in the first one's memory carries over.
    // (Its own job runner, as a second process would have: workers register once per runner.)
    const jobs = new Jobs(app.deps.config, app.deps.database, app.db.url, app.deps.log);
    const restarted = await buildApp({ ...app.deps, jobs }, { webDist: null });
    await restarted.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = restarted.server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const response = await fetch(`${url}/v1/public/utils/summary`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
        body: JSON.stringify({ text: TEXT }),
      });
      expect(response.status).toBe(429);
      expect(((await response.json()) as { error: string }).error).toBe(DAILY_LIMIT_REACHED);
    } finally {
      await restarted.close();
    }
  });

  it("does not count a signed-in user's offline summaries (they cost no LLM spend)", async () => {
    const basic = await app.signIn('offline-tools@example.com');
    for (let i = 0; i < SUMMARIZER_DAILY_LIMIT + 2; i++) {
      expect((await post(app, '/v1/utils/summary', { text: TEXT }, { token: basic })).status, `call ${i + 1}`).toBe(200);
    }
    expect((await collect(app, basic, { mode: 'summary', request: { text: TEXT } })).at(-1)?.type).toBe('done');
    const { id } = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'offline-tools@example.com' } });
    expect(await app.deps.db.dailyUsage.count({ where: { subject: id } })).toBe(0);
  });

  it('streams source, the summary in pieces, then the same result as the POST call', async () => {
    const token = await app.signIn('stream-tools@example.com');
    const events = await collect(app, token, { mode: 'youtube', request: { link: `https://youtu.be/${VIDEO}` } });
    expect(events[0]).toMatchObject({ type: 'source', source: { kind: 'youtube', title: 'Library Hours Explained', durationSeconds: 95 } });
    const tokens = events.flatMap((e) => (e.type === 'token' ? [e.text] : []));
    expect(tokens.length).toBeGreaterThan(1);
    const done = events.at(-1)!;
    if (done.type !== 'done') throw new Error(`stream ended with ${JSON.stringify(done)}`);
    expect(tokens.join('')).toBe(done.result.summary);
    const posted = await post(app, '/v1/utils/youtube', { link: `https://youtu.be/${VIDEO}` }, { token });
    expect(posted.body.result).toEqual(done.result);
  });

  it('ends a stream with one error event naming the problem', async () => {
    expect(await collect(app, undefined, { mode: 'youtube', request: { link: 'https://vimeo.com/1' } })).toEqual([
      { type: 'error', error: 'Invalid YouTube link' },
    ]);
    const refused = await collect(app, undefined, { mode: 'summary', request: { link: 'http://169.254.169.254/latest/' } });
    expect(refused).toEqual([{ type: 'error', error: expect.stringMatching(/^Link refused/) }]);
  });
});

describe('summarizer with an LLM', () => {
  let llm: OpenAiTestServer;
  let app: TestApp;
  beforeAll(async () => {
    llm = await startOpenAiTestServer();
    app = await startTestApp({ OPENAI_BASE_URL: llm.url, OPENAI_API_KEY: 'test-key', LLM_MAX_RETRIES: 0, TRUST_PROXY: 1 });
  });
  afterAll(async () => {
    await app.close();
    await llm.close();
  });

  it('streams the summary as the LLM writes it and answers the sanitised HTML', async () => {
    llm.setResponder(() => '<p>The library stays open until <b>nine</b> from next month.</p><script>alert(1)</script><ul><li>Cost: forty thousand dollars a year.</li></ul>');
    const events = await collect(app, undefined, { mode: 'summary', request: { text: TEXT } });
    const tokens = events.flatMap((e) => (e.type === 'token' ? [e.text] : []));
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.join('')).toContain('<script>');
    const done = events.at(-1)!;
    if (done.type !== 'done') throw new Error(`stream ended with ${JSON.stringify(done)}`);
    expect(done.result.summary).toBe('<p>The library stays open until <b>nine</b> from next month.</p><ul><li>Cost: forty thousand dollars a year.</li></ul>');
    const request = llm.requests.at(-1)!;
    expect(request.body.stream).toBe(true);
    expect(request.body.messages.at(-1)!.content).toContain('A survey of six hundred readers');
    // Visitors get the basic model.
    expect(request.body.model).toBe(app.deps.config.OPENAI_MODEL_BASIC);
  });

  it('counts Basic users per account (streams included), gives failed calls back, and lets premium users through', async () => {
    const basic = await app.signIn('basic-tools@example.com');
    // Failed calls cost nothing.
    for (let i = 0; i < 3; i++) {
      llm.enqueue({ status: 500, message: 'boom' });
      expect((await post(app, '/v1/utils/summary', { text: TEXT }, { token: basic })).status).toBe(503);
    }
    for (let i = 0; i < SUMMARIZER_DAILY_LIMIT - 1; i++) {
      expect((await post(app, '/v1/utils/summary', { text: TEXT }, { token: basic, ip: `192.0.2.${i + 1}` })).status, `call ${i + 1}`).toBe(200);
    }
    const streamed = await collect(app, basic, { mode: 'summary', request: { text: TEXT } });
    expect(streamed.at(-1)?.type).toBe('done');
    const over = await post(app, '/v1/utils/youtube', { link: `https://youtu.be/${VIDEO}` }, { token: basic });
    expect(over).toEqual({ status: 429, body: expect.objectContaining({ error: DAILY_LIMIT_REACHED, message: DAILY_LIMIT_REACHED }) });
    expect(await collect(app, basic, { mode: 'summary', request: { text: TEXT } })).toEqual([{ type: 'error', error: DAILY_LIMIT_REACHED }]);

    const premium = await app.signIn('premium-tools@example.com');
    await makePremium(app, 'premium-tools@example.com');
    for (let i = 0; i < SUMMARIZER_DAILY_LIMIT + 2; i++) {
      expect((await post(app, '/v1/utils/summary', { text: TEXT }, { token: premium })).status, `premium call ${i + 1}`).toBe(200);
    }
    expect((await post(app, '/v1/public/utils/summary', { text: TEXT }, { token: premium })).status).toBe(200);
  });

  it('answers a clear 5xx when the LLM fails, and the failed call costs nothing', async () => {
    llm.enqueue({ status: 500, message: 'boom' });
    const response = await post(app, '/v1/public/utils/summary', { text: TEXT }, { ip: '203.0.113.99' });
    expect(response.status).toBe(503);
    expect(response.body.error).toMatch(/AI service/);
    expect(await app.deps.db.dailyUsage.findFirst({ where: { subject: 'ip:203.0.113.99', kind: SUMMARIZER_KIND } })).toMatchObject({ count: 0 });
  });
});
