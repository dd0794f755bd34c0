/**
 * Reads: a whole 5,000-line meeting, the first page of a 10,000-line meeting and
 * the grouped list of 1,000 meetings, each next to a bare Fastify route serving the same JSON.
 *
 * The server runs in a child process (this file with `--serve`): the real app (buildApp, every hook and
 * plugin) on a fresh database on the local PostgreSQL, listening on loopback, and beside it in the same
 * process a bare Fastify app that answers the very JSON the real routes answered, from memory. This
 * process only sends requests (keep-alive HTTP), so the client's own CPU does not count against either
 * server, and both servers share one process and one run. Requests ask for no compression (identity):
 * the reference serves plain JSON too. One figure line per measurement: value, reference, target, met.
 *   npm run bench -- reads
 *   READS_BENCH_CPU_PROF=/tmp/prof npm run bench -- reads    also writes a CPU profile of the server process
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { serverNodeFlags, Verdicts } from './support.js';

interface Seeded {
  appUrl: string;
  bareUrl: string;
  token: string;
  listToken: string;
  /** 5,000 lines (finished). */
  whole: string;
  /** 10,000 lines, finished: the opening page is the top. */
  long: string;
  /** 10,000 lines, live: the opening page is the bottom. */
  longLive: string;
}

const WHOLE_LINES = 5_000;
const LONG_LINES = 10_000;
const LIST_MEETINGS = 1_000;
const START = Date.UTC(2025, 0, 6, 9, 0);

const trpcQuery = (path: string, input: unknown) => `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;

/** Every call the bench measures, as a path on the real app; the bare app serves each under /bare/<name>. */
type CallName = 'wholeRest' | 'wholeTrpc' | 'firstPageRest' | 'firstPageTrpc' | 'firstPageLive' | 'grouped' | 'gaps';

function calls(seed: Omit<Seeded, 'appUrl' | 'bareUrl'>): Record<CallName, { path: string; token: string }> {
  return {
    wholeRest: { path: `/v1/meeting/${seed.whole}`, token: seed.token },
    wholeTrpc: { path: trpcQuery('meeting.get', { id: seed.whole }), token: seed.token },
    firstPageRest: { path: `/v1/meeting/${seed.long}/messages`, token: seed.token },
    firstPageTrpc: { path: trpcQuery('meeting.messages', { id: seed.long, limit: 150 }), token: seed.token },
    firstPageLive: { path: `/v1/meeting/${seed.longLive}/messages`, token: seed.token },
    grouped: { path: '/v1/meeting-list/grouped', token: seed.listToken },
    // The floor of any signed-in read: one small query, a body of two bytes.
    gaps: { path: `/v1/meeting/${seed.long}/events`, token: seed.token },
  };
}

// ---------------------------------------------------------------- server side (child process)

async function serve(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const { startTestApp } = await import('../../apps/server/src/test/app.js');
  const app = await startTestApp();
  if (app.deps.database.kind !== 'postgres') throw new Error('reads bench needs the local PostgreSQL (or TEST_DATABASE_URL)');
  const db = app.deps.db;

  const token = await app.signIn('reader@example.com');
  const listToken = await app.signIn('lister@example.com');
  const reader = await db.user.findUniqueOrThrow({ where: { email: 'reader@example.com' } });
  const lister = await db.user.update({ where: { email: 'lister@example.com' }, data: { timezone: 'Europe/Berlin' } });

  const speakers = ['Ana Lima', 'Bo Chen', 'Carla Diaz', 'Dev Patel'];
  async function meetingWithLines(sessionId: string, lines: number, finished: boolean): Promise<string> {
    const meeting = await db.meeting.create({
      data: {
        userId: reader.id,
        sessionId,
        meetCode: 'abc-defg-hij',
        title: `Planning ${sessionId}`,
        startedAt: new Date(START),
        finishedAt: finished ? new Date(START + lines * 2_000) : null,
        users: speakers,
      },
    });
    for (let from = 0; from < lines; from += 1_000) {
      await db.message.createMany({
        data: Array.from({ length: Math.min(1_000, lines - from) }, (_, k) => {
          const i = from + k;
          return {
            meetingId: meeting.id,
            captionId: `c${i}`,
            revision: 1,
            final: true,
            user: speakers[i % speakers.length]!,
            text: `Line ${i}: so the plan for the next sprint is to ship the paged transcript and measure it again.`,
            marks: i % 50 === 0 ? ['important'] : [],
            // Lines 10k and 10k+1 share their time: the page order breaks ties by key.
            spokenAt: new Date(START + (i - (i % 10 === 1 ? 1 : 0)) * 2_000),
          };
        }),
      });
    }
    // A finished meeting ends as the extension ends it (which stores its line count).
    if (finished) {
      const ended = await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId, finishedAt: START + lines * 2_000 } });
      if (ended.status !== 200) throw new Error(`ending ${sessionId}: ${ended.status}`);
    }
    return meeting.id;
  }
  const whole = await meetingWithLines('whole', WHOLE_LINES, true);
  const long = await meetingWithLines('long', LONG_LINES, true);
  const longLive = await meetingWithLines('long-live', LONG_LINES, false);
  await db.meeting.createMany({
    data: Array.from({ length: LIST_MEETINGS }, (_, i) => ({
      userId: lister.id,
      sessionId: `list-${i}`,
      meetCode: 'abc-defg-hij',
      title: i % 7 ? `Weekly sync ${i}` : '',
      // About three meetings a day over the year before START, at hours that cross midnight in Berlin.
      startedAt: new Date(START - i * 8 * 3_600_000 - (i % 5) * 1_234_567),
      finishedAt: new Date(START - i * 8 * 3_600_000 + 1_800_000),
      users: speakers.slice(0, 1 + (i % 4)),
    })),
  });
  await db.$executeRawUnsafe('VACUUM ANALYZE');

  // The bare reference: the same JSON, parsed once, serialised per request by Fastify like any route.
  const bare = Fastify();
  const seed = { token, listToken, whole, long, longLive };
  for (const [name, call] of Object.entries(calls(seed))) {
    const response = await fetch(`${app.url}${call.path}`, { headers: { authorization: `Bearer ${call.token}` } });
    if (response.status !== 200) throw new Error(`${call.path}: ${response.status} ${await response.text()}`);
    const body: unknown = await response.json();
    bare.get(`/bare/${name}`, async () => body);
  }
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const address = bare.server.address();
  const bareUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  process.send?.({ appUrl: app.url, bareUrl, ...seed } satisfies Seeded);
  process.on('message', (message) => {
    if (message !== 'stop') return;
    void Promise.all([bare.close(), app.close()]).then(() => process.exit(0));
  });
}

// ---------------------------------------------------------------- client side (this process)

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** One GET; resolves with the status after the whole body arrived. */
function get(url: string, token?: string, encoding?: string): Promise<{ status: number; bytes: number }> {
  const headers = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(encoding ? { 'accept-encoding': encoding } : {}) };
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Latency {
  p50: number;
  p99: number;
  /** Requests per second, one after another. */
  rate: number;
  bytes: number;
}

/** `count` requests one after another (after `warmup` unmeasured ones); milliseconds. */
async function latency(url: string, token: string | undefined, count: number, warmup: number, encoding?: string): Promise<Latency> {
  let bytes = 0;
  for (let i = 0; i < warmup; i++) await get(url, token, encoding);
  const times: number[] = [];
  const began = performance.now();
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const response = await get(url, token, encoding);
    times.push(performance.now() - start);
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    bytes = response.bytes;
  }
  const total = performance.now() - began;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99), rate: (count / total) * 1000, bytes };
}

/** Requests per second with `clients` requests always in flight, for `ms` milliseconds. */
async function throughput(url: string, token: string | undefined, clients: number, ms: number): Promise<number> {
  const end = performance.now() + ms;
  let done = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const response = await get(url, token);
        if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
        done++;
      }
    }),
  );
  return (done / ms) * 1000;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (bytes: number) => `${Math.round(bytes / 1024)} kB`;
const verdicts = new Verdicts({ name: 44, value: 30, reference: 30 });

async function main(): Promise<void> {
  // READS_BENCH_CPU_PROF=<dir> writes a CPU profile of the server process there (open it in Chrome DevTools).
  const profile = process.env.READS_BENCH_CPU_PROF;
  const execArgv = ['--import', 'tsx', ...serverNodeFlags(), ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])];
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv });
  const seeded = await new Promise<Seeded>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Seeded));
    child.once('exit', (code) => reject(new Error(`bench server exited (${code}) before it was ready`)));
  });
  try {
    const all = calls(seeded);
    const app = (name: CallName) => ({ url: `${seeded.appUrl}${all[name].path}`, token: all[name].token });
    const bare = (name: CallName) => `${seeded.bareUrl}/bare/${name}`;
    console.log(`server: real app + bare Fastify in one child process, fresh PostgreSQL database; client: this process`);

    // (a) A 5,000-line meeting read whole.
    for (const name of ['wholeRest', 'wholeTrpc'] as const) {
      const ref = await latency(bare(name), undefined, 100, 10);
      const got = await latency(app(name).url, app(name).token, 100, 10);
      const label = name === 'wholeRest' ? 'GET /v1/meeting/{id} (5,000 lines)' : 'tRPC meeting.get (5,000 lines)';
      verdicts.figure(
        `${label} p50/p99`,
        `${ms(got.p50)} / ${ms(got.p99)} (${kb(got.bytes)})`,
        `${ms(ref.p50)} / ${ms(ref.p99)}`,
        'report; rate ratio below',
        null,
      );
      verdicts.figure(`${label} rate vs bare`, `${(got.rate / ref.rate).toFixed(2)} of bare`, `${ref.rate.toFixed(0)} req/s`, 'report', null);
    }
    for (const encoding of ['gzip', 'br']) {
      const ref = await latency(bare('wholeRest'), undefined, 50, 5);
      const got = await latency(app('wholeRest').url, app('wholeRest').token, 50, 5, encoding);
      verdicts.figure(
        `GET /v1/meeting/{id} (5,000 lines), ${encoding} p50/p99`,
        `${ms(got.p50)} / ${ms(got.p99)} (${kb(got.bytes)})`,
        `${ms(ref.p50)} / ${ms(ref.p99)} (${kb(ref.bytes)} plain)`,
        'report',
        null,
      );
    }

    // (b) The first page of a 10,000-line meeting.
    for (const name of ['firstPageRest', 'firstPageTrpc', 'firstPageLive'] as const) {
      const ref = await latency(bare(name), undefined, 1_000, 100);
      const got = await latency(app(name).url, app(name).token, 1_000, 100);
      const label = {
        firstPageRest: 'GET …/messages first page (10,000 lines)',
        firstPageTrpc: 'tRPC meeting.messages first page',
        firstPageLive: 'GET …/messages first page, live meeting',
      }[name];
      verdicts.figure(
        `${label} p50/p99`,
        `${ms(got.p50)} / ${ms(got.p99)} (${kb(got.bytes)})`,
        `${ms(ref.p50)} / ${ms(ref.p99)}`,
        'p99 ≤ 10 ms',
        got.p99 <= 10,
      );
    }

    {
      const ref = await latency(bare('gaps'), undefined, 1_000, 100);
      const got = await latency(app('gaps').url, app('gaps').token, 1_000, 100);
      verdicts.figure('floor: GET …/events (one small query) p50/p99', `${ms(got.p50)} / ${ms(got.p99)}`, `${ms(ref.p50)} / ${ms(ref.p99)}`, 'report', null);
    }

    // (c) The grouped list of 1,000 meetings: rate with 4 requests in flight.
    {
      const name = 'grouped' as const;
      await throughput(bare(name), undefined, 4, 1_000);
      await throughput(app(name).url, app(name).token, 4, 1_000);
      const ref = await throughput(bare(name), undefined, 4, 4_000);
      const got = await throughput(app(name).url, app(name).token, 4, 4_000);
      const seq = await latency(app(name).url, app(name).token, 200, 0);
      const refSeq = await latency(bare(name), undefined, 200, 0);
      verdicts.figure(
        'GET /v1/meeting-list/grouped (1,000) p50/p99',
        `${ms(seq.p50)} / ${ms(seq.p99)} (${kb(seq.bytes)})`,
        `${ms(refSeq.p50)} / ${ms(refSeq.p99)}`,
        'report',
        null,
      );
      verdicts.figure('GET /v1/meeting-list/grouped rate (4 in flight)', `${got.toFixed(0)} req/s = ${(got / ref).toFixed(2)} of bare`, `${ref.toFixed(0)} req/s`, '≥ 0.3 of bare', got / ref >= 0.3);
    }
  } finally {
    child.send('stop');
    await new Promise((resolve) => child.once('exit', resolve));
    agent.destroy();
  }
  if (verdicts.missed) {
    console.log(`${verdicts.missed} target(s) not met`);
    process.exitCode = 1;
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
