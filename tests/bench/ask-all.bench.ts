/**
 * Ask all meetings: time to the first words of an answer across 1,000 meetings × 500 lines of one user
 * (docs/ask.md, "Ask all meetings"), with the offline engine, through `ask.allStream` as the web app
 * asks (SSE). Reference: the same user's full-text search (`GET /v1/search`) of the question's main
 * word in the same run. Target: p99 ≤ 250 ms to the first words.
 *
 * The server runs in a child process (this file with `--ask-server`): the real app on a fresh database on
 * the local PostgreSQL; the rows are written with multi-row INSERTs (search.bench.ts's seeding: the
 * migration's triggers index them as ingest does), the meetings' stored-line counts set as ingest keeps
 * them, then VACUUM ANALYZE. The last meeting started an hour ago and each earlier one 8 hours before the
 * next, so the 1,000 meetings cover the last 333 days and "last month" holds about 90 of them. This
 * process asks one question at a time over a fresh connection, as a browser's EventSource does.
 *   npm run bench -- ask-all                 COUNT=100 questions per kind by default
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { seedMeetings } from './search.bench.js';
import { readEventStream, serverNodeFlags, Verdicts } from './support.js';

const MEETINGS = 1_000;
const LINES = 500;
const COUNT = Number(process.env.COUNT ?? 100);
const WARMUP = 10;
const TARGET_MS = 250;

/** Every measured question, and the word its search reference looks for. */
const QUESTIONS = [
  { kind: 'all meetings', question: 'What did we decide about pricing?', word: 'pricing' },
  { kind: 'last month', question: 'What did we decide about pricing last month?', word: 'pricing' },
  { kind: 'several words', question: 'Who owns the security contract and the invoice going forward?', word: 'security' },
  { kind: 'rare word', question: 'When is the zeppelin demo?', word: 'zeppelin' },
  { kind: 'no words (yesterday)', question: 'What happened yesterday?', word: 'budget' },
] as const;

interface Seeded {
  url: string;
  token: string;
}

// ---------------------------------------------------------------- server side (child process)

async function serve(): Promise<void> {
  const { default: pgModule } = await import('pg');
  const { startTestApp } = await import('../../apps/server/src/test/app.js');
  const app = await startTestApp();
  if (app.deps.database.kind !== 'postgres' || !app.db.url) throw new Error('ask-all bench needs the local PostgreSQL (or TEST_DATABASE_URL)');
  if (app.deps.ai.engine !== 'offline') throw new Error(`ask-all bench measures the offline engine, not ${app.deps.ai.engine}`);
  const token = await app.signIn('asker@example.com');
  const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'asker@example.com' } });
  const client = new pgModule.Client({ connectionString: app.db.url });
  await client.connect();
  const began = performance.now();
  await seedMeetings(client, user.id, 'a', MEETINGS, Date.now() - 3_600_000);
  await client.query(`UPDATE "Meeting" SET "storedLines" = ${LINES}`);
  await client.query('VACUUM ANALYZE');
  const { rows } = await client.query<{ lines: number }>('SELECT count(*)::int AS lines FROM "Message"');
  await client.end();
  console.error(`seeded ${rows[0]!.lines.toLocaleString('en-US')} lines in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  process.send?.({ url: app.url, token } satisfies Seeded);
  process.on('message', (message) => {
    if (message === 'stop') void app.close().then(() => process.exit(0));
  });
}

// ---------------------------------------------------------------- client side (this process)

interface Timing {
  /** Until the first text of the answer arrived. */
  firstWords: number;
  /** Until the done event. */
  done: number;
  citations: number;
}

/** One question over `ask.allStream` (tRPC's SSE), timed from the request to its first delta and to done. */
function ask(seeded: Seeded, question: string): Promise<Timing> {
  const input = encodeURIComponent(JSON.stringify({ question }));
  const start = performance.now();
  return new Promise((resolve, reject) => {
    let firstWords: number | undefined;
    const req = request(
      `${seeded.url}/trpc/ask.allStream?input=${input}`,
      { agent: false, headers: { accept: 'text/event-stream', authorization: `Bearer ${seeded.token}` } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`ask answered ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on('error', () => {});
        res.on(
          'data',
          readEventStream((name, data) => {
            if (name === 'serialized-error') return reject(new Error(`ask failed: ${data}`));
            if (name !== 'message') return;
            // tRPC writes each event the subscription yields as the data of a `message`.
            const event = JSON.parse(data) as { type: string; citations?: unknown[] };
            if (event.type === 'delta') firstWords ??= performance.now() - start;
            if (event.type === 'error') reject(new Error(`ask failed: ${data}`));
            if (event.type === 'done') {
              req.destroy();
              resolve({ firstWords: firstWords ?? Number.NaN, done: performance.now() - start, citations: event.citations?.length ?? 0 });
            }
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function search(seeded: Seeded, q: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${seeded.url}/v1/search?q=${encodeURIComponent(q)}`, { agent, headers: { authorization: `Bearer ${seeded.token}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - start) : reject(new Error(`search answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function main(): Promise<void> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--ask-server'], { execArgv: ['--import', 'tsx', ...serverNodeFlags()] });
  const seeded = await new Promise<Seeded>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Seeded));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const verdicts = new Verdicts({ name: 30, value: 52, reference: 26 });
  console.log(`${MEETINGS} meetings × ${LINES} lines of one user, offline engine; ${COUNT} questions per kind, one at a time`);
  try {
    for (const { kind, question, word } of QUESTIONS) {
      for (let i = 0; i < WARMUP; i++) await ask(seeded, question);
      const timings: Timing[] = [];
      for (let i = 0; i < COUNT; i++) timings.push(await ask(seeded, question));
      const searches: number[] = [];
      for (let i = 0; i < COUNT; i++) searches.push(await search(seeded, word));
      const first = timings.map((t) => t.firstWords).sort((a, b) => a - b);
      const done = timings.map((t) => t.done).sort((a, b) => a - b);
      searches.sort((a, b) => a - b);
      verdicts.figure(
        kind,
        `first words p50 ${at(first, 0.5).toFixed(1)} ms, p99 ${at(first, 0.99).toFixed(1)} ms; done p50 ${at(done, 0.5).toFixed(1)} ms`,
        `search p50 ${at(searches, 0.5).toFixed(1)} ms (${timings[0]!.citations} cited)`,
        `p99 ≤ ${TARGET_MS} ms`,
        at(first, 0.99) <= TARGET_MS,
      );
    }
  } finally {
    child.send('stop');
    agent.destroy();
  }
  if (verdicts.missed) process.exitCode = 1;
}

if (process.argv.includes('--ask-server')) await serve();
else if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
