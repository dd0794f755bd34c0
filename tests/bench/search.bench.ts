/**
 * Search: `GET /v1/search?q=` for a user with 1,000 meetings × 500 lines,
 * beside two other users' 250 meetings × 500 lines each (noise the ownership filter must skip). Target:
 * p99 ≤ 100 ms for every kind of query: a common word, a rare word, a phrase, a participant's name and
 * a misspelled name.
 *
 * The server runs in a child process (this file with `--serve`): the real app (buildApp, every hook and
 * plugin) on a fresh database on the local PostgreSQL migrated by the server, listening on loopback. The
 * rows are written with multi-row INSERTs (the migration's triggers index them as the ingest path's
 * rows are), then VACUUM ANALYZE. This process only sends requests, one after another, keep-alive.
 *   npm run bench -- search                 COUNT=200 requests per query by default
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { serverNodeFlags, Verdicts } from './support.js';

const MEETINGS = 1_000;
const LINES = 500;
const NOISE_USERS = 2;
const NOISE_MEETINGS = 250;
const COUNT = Number(process.env.COUNT ?? 200);
const WARMUP = 20;
const TARGET_MS = 100;
const START = Date.UTC(2025, 0, 6, 9, 0);

const NAMES = [
  'John Carter', 'Maria Garcia', 'Michael Brown', 'Aisha Khan', 'Sven Larsen', 'Priya Raman', 'Tomasz Nowak',
  'Chen Wei', 'Fatima Zahra', 'Lucas Martin', 'Olivia Smith', 'Kenji Sato', 'Ingrid Berg', 'Diego Torres',
  'Hannah Schulz', 'Omar Haddad', 'Grace Okafor', 'Pierre Dubois', 'Elena Petrova', 'Samuel Cohen',
];
const TOPICS = [
  'budget', 'roadmap', 'hiring', 'launch', 'migration', 'customer', 'pricing', 'deadline', 'design', 'onboarding',
  'security', 'invoice', 'contract', 'release', 'feedback', 'analytics', 'campaign', 'integration', 'support', 'forecast',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const TEMPLATES: ((t: string, u: string, n: string, d: string, k: number) => string)[] = [
  (t, u, n, d) => `I think we should revisit the ${t} before the ${d} meeting.`,
  (t, u, n, d) => `${n.split(' ')[0]}, can you send me the ${t} numbers by ${d}?`,
  (t) => `We promised the client a ${t} update next week, so let's not slip on that.`,
  (t, u, n) => `The ${t} is blocked on the ${u} work, so let's sync with ${n.split(' ')[0]} after this.`,
  (t) => `Okay, that makes sense. Let's move on to the ${t}.`,
  (t) => `I'll follow up on the ${t} with legal and get back to you.`,
  (t, u, n, d, k) => `From the data I saw, the ${t} improved by ${k % 40} percent last quarter.`,
  () => 'Sorry, could you repeat that? The audio cut out for a second.',
  () => 'Yeah, agreed.',
  (t, u, n, d) => `Let's park the ${t} discussion and come back to it on ${d}.`,
  (t, u) => `Customer feedback on the ${t} was mostly positive, but the ${u} needs work.`,
  (t) => `Who owns the ${t} going forward? I don't want it to fall through the cracks.`,
  (t, u) => `If we move the ${t} to next sprint, the ${u} can go out first.`,
  () => 'Right, I can take that one.',
  (t) => `Let me share my screen and walk you through the ${t} dashboard.`,
  (t, u) => `The quarterly roadmap review should cover the ${t} and the ${u}.`,
];
const TITLES = ['Weekly sync', 'Roadmap review', 'Customer call', 'Hiring committee', 'Design critique', 'Sprint planning', 'Budget review', 'All hands', '1:1'];

/** Every measured query: a name, and the `q` sent. */
const QUERIES = [
  { kind: 'common word', q: 'budget' },
  { kind: 'rare word', q: 'zeppelin' },
  { kind: 'phrase', q: '"customer feedback"' },
  { kind: 'name', q: 'Aisha' },
  { kind: 'misspelled name', q: 'Micheal' },
  { kind: 'two words', q: 'pricing deadline' },
] as const;

interface Seeded {
  url: string;
  token: string;
}

const id = (prefix: string, n: number) => `${prefix}${n.toString(36).padStart(10, '0')}`;

/** One meeting's participants: 3 to 6 names, varied by meeting. */
function participants(m: number): string[] {
  const count = 3 + (m % 4);
  return Array.from({ length: count }, (_, i) => NAMES[(m * 7 + i * 3) % NAMES.length]!);
}

/** Line `i` of meeting `m`: a sentence of a work meeting; a few thousand lines in, the rare word. */
function line(m: number, i: number): { speaker: string; text: string } {
  const names = participants(m);
  const k = m * LINES + i;
  // A cheap hash spreads templates and topics evenly without a correlation between them.
  const h = Math.imul(k + 1, 2_654_435_761) >>> 0;
  const topic = TOPICS[h % TOPICS.length]!;
  const other = TOPICS[(h >>> 8) % TOPICS.length]!;
  const text = TEMPLATES[(h >>> 16) % TEMPLATES.length]!(topic, other, names[(i + 1) % names.length]!, DAYS[(h >>> 4) % DAYS.length]!, k);
  return { speaker: names[i % names.length]!, text: k % 49_999 === 17 ? `${text} Also, the zeppelin demo is on.` : text };
}

/** The user's meetings and lines, by multi-row INSERT (5,000 lines a statement); meeting m starts m × 8 hours before `start`. */
export async function seedMeetings(client: pg.ClientBase, userId: string, prefix: string, meetings: number, start = START): Promise<void> {
  const ids = Array.from({ length: meetings }, (_, m) => id(`${prefix}m`, m));
  await client.query(
    `INSERT INTO "Meeting" (id, "userId", "sessionId", "meetCode", title, "startedAt", "finishedAt", users, "createdAt", "updatedAt")
     SELECT v.id, $1, v.id, 'abc-defg-hij', v.title, v.started, v.started + interval '1 hour', v.users::text[], now(), now()
     FROM json_to_recordset($2::json) AS v(id text, title text, started timestamp, users text)`,
    [
      userId,
      JSON.stringify(
        ids.map((mid, m) => ({
          id: mid,
          title: `${TITLES[m % TITLES.length]} ${participants(m)[0]!.split(' ')[0]}`,
          started: new Date(start - m * 8 * 3_600_000).toISOString(),
          users: `{${participants(m).map((n) => `"${n}"`).join(',')}}`,
        })),
      ),
    ],
  );
  const perStatement = 10;
  for (let from = 0; from < meetings; from += perStatement) {
    const rows: unknown[] = [];
    for (let m = from; m < Math.min(meetings, from + perStatement); m++) {
      for (let i = 0; i < LINES; i++) {
        const { speaker, text } = line(m, i);
        rows.push({ id: id(`${prefix}l`, m * LINES + i), meeting: ids[m], caption: `c${i}`, speaker, text, at: new Date(start - m * 8 * 3_600_000 + i * 4_000).toISOString() });
      }
    }
    await client.query(
      `INSERT INTO "Message" (id, "meetingId", "captionId", revision, final, "user", text, "spokenAt", "lastUpdated")
       SELECT v.id, v.meeting, v.caption, 1, true, v.speaker, v.text, v.at, now()
       FROM json_to_recordset($1::json) AS v(id text, meeting text, caption text, speaker text, text text, at timestamp)`,
      [JSON.stringify(rows)],
    );
  }
}

// ---------------------------------------------------------------- server side (child process)

async function serve(): Promise<void> {
  const { default: pgModule } = await import('pg');
  const { startTestApp } = await import('../../apps/server/src/test/app.js');
  const app = await startTestApp();
  if (app.deps.database.kind !== 'postgres' || !app.db.url) throw new Error('search bench needs the local PostgreSQL (or TEST_DATABASE_URL)');
  const token = await app.signIn('searcher@example.com');
  const users = [await app.deps.db.user.findUniqueOrThrow({ where: { email: 'searcher@example.com' } })];
  for (let n = 0; n < NOISE_USERS; n++) {
    await app.signIn(`noise${n}@example.com`);
    users.push(await app.deps.db.user.findUniqueOrThrow({ where: { email: `noise${n}@example.com` } }));
  }
  const client = new pgModule.Client({ connectionString: app.db.url });
  await client.connect();
  const began = performance.now();
  await seedMeetings(client, users[0]!.id, 's', MEETINGS);
  for (let n = 1; n < users.length; n++) await seedMeetings(client, users[n]!.id, `n${n}`, NOISE_MEETINGS);
  await client.query('VACUUM ANALYZE');
  const { rows } = await client.query<{ lines: number; indexed: number }>(
    'SELECT count(*)::int AS lines, count("searchVector")::int AS indexed FROM "Message"',
  );
  await client.end();
  console.error(`seeded ${rows[0]!.lines.toLocaleString('en-US')} lines in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  if (rows[0]!.indexed !== rows[0]!.lines) throw new Error(`only ${rows[0]!.indexed} of ${rows[0]!.lines} lines have a search vector`);
  process.send?.({ url: app.url, token } satisfies Seeded);
  process.on('message', (message) => {
    if (message === 'stop') void app.close().then(() => process.exit(0));
  });
}

// ---------------------------------------------------------------- client side (this process)

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function get(url: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: ['--import', 'tsx', ...serverNodeFlags()] });
  const seeded = await new Promise<Seeded>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Seeded));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const verdicts = new Verdicts({ name: 34, value: 32, reference: 12 });
  console.log(`${MEETINGS} meetings × ${LINES} lines for the searching user, ${NOISE_USERS} × ${NOISE_MEETINGS} × ${LINES} of others; ${COUNT} requests per query`);
  try {
    for (const { kind, q } of QUERIES) {
      const url = `${seeded.url}/v1/search?q=${encodeURIComponent(q)}`;
      let results = 0;
      for (let i = 0; i < WARMUP; i++) await get(url, seeded.token);
      const times: number[] = [];
      for (let i = 0; i < COUNT; i++) {
        const start = performance.now();
        const response = await get(url, seeded.token);
        times.push(performance.now() - start);
        if (response.status !== 200) throw new Error(`${q}: ${response.status} ${response.body}`);
        results = (JSON.parse(response.body) as { results: unknown[] }).results.length;
      }
      times.sort((a, b) => a - b);
      const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
      verdicts.figure(
        `${kind} (${q})`,
        `p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms`,
        `${results} results`,
        `p99 ≤ ${TARGET_MS} ms`,
        at(0.99) <= TARGET_MS,
      );
    }
  } finally {
    child.send('stop');
    agent.destroy();
  }
  if (verdicts.missed) process.exitCode = 1;
}

if (process.argv.includes('--serve')) await serve();
else if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
