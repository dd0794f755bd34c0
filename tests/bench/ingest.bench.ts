/**
 * Ingest: `POST /v1/transcript/lines` in batches of 20 lines from 8 concurrent
 * clients, next to a raw multi-row INSERT of the same rows (pg, same database, same concurrency) measured
 * in the same run. Three workloads: new lines, the same batches re-sent (changes nothing), and every line
 * again with a newer revision. Target: new and re-sent ≥ 0.5 of the raw INSERT rate (in lines/s).
 *
 * The server runs in a child process (this file with `--serve`): the real app (buildApp, every hook and
 * plugin, request logging at info into /dev/null) on a fresh database on the local PostgreSQL, listening
 * on loopback. The clients (keep-alive HTTP, the extension's token) and the raw reference run here.
 *   npm run bench -- ingest              BATCHES=100 per client and phase, ROUNDS=3, WARMUP=100 by default
 *   PROF=1 npm run bench -- ingest       also writes the server's CPU profile to /tmp/ingest-prof
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { backendsCpu, postJson, serverCpu, serverNodeFlags, Verdicts } from './support.js';

const CLIENTS = 8;
const LINES_PER_BATCH = 20;
const BATCHES = Number(process.env.BATCHES ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
// Enough for the JIT to settle: with 20, the server's CPU per line still halved from round 1 to round 3.
const WARMUP_BATCHES = Number(process.env.WARMUP ?? 100);
const START = Date.UTC(2025, 0, 6, 9, 0);
const SPEAKERS = ['Ana Lima', 'Bo Chen', 'Carla Diaz', 'Dev Patel'];
const RAW_APPLICATION = 'ingest-bench-raw';

interface Served {
  url: string;
  databaseUrl: string;
  userId: string;
  extensionToken: string;
}

// ---------------------------------------------------------------- server side (child process)

async function serve(): Promise<void> {
  const { startTestApp } = await import('../../apps/server/src/test/app.js');
  // Request lines logged as in production (info); this child's stdout is /dev/null.
  const app = await startTestApp({ LOG_LEVEL: 'info' });
  if (app.deps.database.kind !== 'postgres' || !app.db.url) throw new Error('ingest bench needs the local PostgreSQL (or TEST_DATABASE_URL)');
  const token = await app.signIn('ingest@example.com');
  const issued = await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token });
  const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'ingest@example.com' } });
  const served: Served = { url: app.url, databaseUrl: app.db.url, userId: user.id, extensionToken: issued.body.token };
  process.send?.(served);
  process.on('message', (message) => {
    if (message === 'stop') void app.close().then(() => process.exit(0));
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  });
}

// ---------------------------------------------------------------- client side (this process)

interface Line {
  captionId: string;
  revision: number;
  speaker: string;
  text: string;
  spokenAt: number;
  final: boolean;
}

/** Batch `b` of client `c`: 20 lines of a caption stream, at the given revision. */
function batch(c: number, b: number, revision: number): Line[] {
  return Array.from({ length: LINES_PER_BATCH }, (_, i) => {
    const n = b * LINES_PER_BATCH + i;
    return {
      captionId: `c${n}`,
      revision,
      speaker: SPEAKERS[(n + c) % SPEAKERS.length]!,
      text: `Line ${n} of client ${c} (rev ${revision}): we went through the plan, the numbers and the open questions.`,
      spokenAt: START + n * 2_000,
      final: revision > 0,
    };
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });

/** Runs `work(c, b)` for b in [0, batches) on each of CLIENTS concurrent clients; returns the seconds taken. */
async function concurrently(batches: number, work: (c: number, b: number) => Promise<void>): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let b = 0; b < batches; b++) await work(c, b);
    }),
  );
  return (performance.now() - started) / 1000;
}

async function ingestPhase(served: Served, session: string, revision: number, batches: number): Promise<{ seconds: number; accepted: number }> {
  let accepted = 0;
  const seconds = await concurrently(batches, async (c, b) => {
    const body = {
      meeting: { sessionId: `${session}-${c}`, meetCode: 'abc-defg-hij', title: `Bench ${session} ${c}`, startedAt: START },
      lines: batch(c, b, revision),
    };
    const { status, text } = await postJson(agent, `${served.url}/v1/transcript/lines`, served.extensionToken, body);
    if (status !== 200) throw new Error(`ingest answered ${status}: ${text.slice(0, 300)}`);
    accepted += (JSON.parse(text) as { accepted: number }).accepted;
  });
  return { seconds, accepted };
}

const newId = () => `b${randomBytes(12).toString('hex')}`;

/** The reference: the same rows by one multi-row INSERT per batch, straight through pg. */
async function rawPhase(pool: pg.Pool, meetingIds: string[], batches: number): Promise<number> {
  return concurrently(batches, async (c, b) => {
    const rows = batch(c, b, 0);
    const now = new Date();
    const values: unknown[] = [];
    const tuples = rows.map((line, i) => {
      values.push(newId(), meetingIds[c], line.captionId, line.revision, line.final, line.speaker, '', line.text, false, new Date(line.spokenAt), now);
      const p = i * 11;
      return `($${p + 1},$${p + 2},$${p + 3},$${p + 4},$${p + 5},$${p + 6},$${p + 7},$${p + 8},$${p + 9},$${p + 10},$${p + 11})`;
    });
    await pool.query(
      `INSERT INTO "Message" (id, "meetingId", "captionId", revision, final, "user", "userAvatar", text, encrypted, "spokenAt", "lastUpdated")
       VALUES ${tuples.join(',')}`,
      values,
    );
  });
}

async function rawMeetings(pool: pg.Pool, userId: string, prefix: string): Promise<string[]> {
  const ids = Array.from({ length: CLIENTS }, newId);
  for (const [c, id] of ids.entries()) {
    await pool.query(
      `INSERT INTO "Meeting" (id, "userId", "sessionId", "meetCode", "startedAt", "updatedAt") VALUES ($1, $2, $3, 'abc-defg-hij', $4, now())`,
      [id, userId, `${prefix}-${c}`, new Date(START)],
    );
  }
  return ids;
}

/** CPU seconds of the PostgreSQL backends on the bench database: the reference's (application_name) and the server's. */
async function databaseCpu(pool: pg.Pool): Promise<{ raw: number; server: number }> {
  const { own, server } = await backendsCpu(pool, RAW_APPLICATION);
  return { raw: own, server };
}

const ownCpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

interface Measured {
  seconds: number;
  /** CPU seconds of the application side (the server; for the reference, this process's pg client). */
  appCpu: number;
  /** CPU seconds of the database backends serving it. */
  dbCpu: number;
}

async function measured(child: ChildProcess, pool: pg.Pool, side: 'raw' | 'server', run: () => Promise<number>): Promise<Measured> {
  const app = () => (side === 'raw' ? Promise.resolve(ownCpu()) : serverCpu(child));
  const [app0, db0] = [await app(), (await databaseCpu(pool))[side]];
  const seconds = await run();
  const [app1, db1] = [await app(), (await databaseCpu(pool))[side]];
  return { seconds, appCpu: app1 - app0, dbCpu: db1 - db0 };
}

const verdicts = new Verdicts({ name: 30, value: 46, reference: 26 });
const rate = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: ['--import', 'tsx', ...serverNodeFlags(), ...(process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/ingest-prof'] : [])],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const served = await new Promise<Served>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Served));
    child.once('exit', (code) => reject(new Error(`bench server exited (${code}) before it was ready`)));
  });
  const pool = new pg.Pool({ connectionString: served.databaseUrl, max: CLIENTS, application_name: RAW_APPLICATION });
  try {
    const lines = CLIENTS * BATCHES * LINES_PER_BATCH;
    console.log(
      `server: real app in a child process, fresh PostgreSQL database; ${CLIENTS} clients × ${BATCHES} batches of ${LINES_PER_BATCH} lines (${rate(lines)} lines) per phase, ${ROUNDS} rounds`,
    );
    // Warm both paths (JIT, connection pools, plan caches) on meetings of their own.
    await rawPhase(pool, await rawMeetings(pool, served.userId, 'raw-warm'), WARMUP_BATCHES);
    await ingestPhase(served, 'warm', 0, WARMUP_BATCHES);
    await ingestPhase(served, 'warm', 0, WARMUP_BATCHES);

    // Each round measures the reference right before the server's phases, so both see the same
    // machine (other processes' load moves both); the median round's ratios are the figures.
    type Phase = Measured & { rate: number };
    const rounds: { raw: Phase; fresh: Phase; resent: Phase; newer: Phase }[] = [];
    const phase = async (side: 'raw' | 'server', run: () => Promise<number>): Promise<Phase> => {
      const m = await measured(child, pool, side, run);
      return { ...m, rate: lines / m.seconds };
    };
    const serverPhase = (session: string, revision: number, expected: number, what: string) =>
      phase('server', async () => {
        const { seconds, accepted } = await ingestPhase(served, session, revision, BATCHES);
        if (accepted !== expected) throw new Error(`${what}: ${accepted} lines changed, expected ${expected}`);
        return seconds;
      });
    for (let round = 1; round <= ROUNDS; round++) {
      const meetings = await rawMeetings(pool, served.userId, `raw-${round}`);
      const raw = await phase('raw', () => rawPhase(pool, meetings, BATCHES));
      const fresh = await serverPhase(`run-${round}`, 0, lines, 'new lines');
      const resent = await serverPhase(`run-${round}`, 0, 0, 're-sent batches');
      const newer = await serverPhase(`run-${round}`, 1, lines, 'newer revisions');
      rounds.push({ raw, fresh, resent, newer });
      const cpu = (p: Phase) => `${((1000 * p.appCpu) / (lines / 1000)).toFixed(0)} + ${((1000 * p.dbCpu) / (lines / 1000)).toFixed(0)}`;
      console.log(
        `  round ${round}: lines/s raw ${rate(raw.rate)}, new ${rate(fresh.rate)}, re-sent ${rate(resent.rate)}, newer ${rate(newer.rate)}` +
          ` | CPU ms per 1,000 lines (app + database) raw ${cpu(raw)}, new ${cpu(fresh)}, re-sent ${cpu(resent)}, newer ${cpu(newer)}`,
      );
    }
    const median = (pick: (r: (typeof rounds)[number]) => Phase) => {
      const sorted = [...rounds].sort((a, b) => pick(a).rate / a.raw.rate - pick(b).rate / b.raw.rate);
      const middle = sorted[Math.floor(sorted.length / 2)]!;
      return { value: pick(middle).rate, raw: middle.raw.rate, ratio: pick(middle).rate / middle.raw.rate };
    };
    // CPU per line over all rounds: what the ratio would be on a machine with nothing else running.
    const cpuRatio = (pick: (r: (typeof rounds)[number]) => Phase) => {
      const sum = (p: (r: (typeof rounds)[number]) => Phase) => rounds.reduce((total, r) => total + p(r).appCpu + p(r).dbCpu, 0);
      return (sum((r) => r.raw) / sum(pick)).toFixed(2);
    };
    const fresh = median((r) => r.fresh);
    verdicts.figure('new lines', `${rate(fresh.value)} lines/s = ${fresh.ratio.toFixed(2)} of raw (CPU ${cpuRatio((r) => r.fresh)})`, `raw INSERT ${rate(fresh.raw)} lines/s`, '≥ 0.5 of raw', fresh.ratio >= 0.5);
    const resent = median((r) => r.resent);
    verdicts.figure(
      're-sent identical batches',
      `${rate(resent.value / LINES_PER_BATCH)} batches/s = ${resent.ratio.toFixed(2)} of raw (CPU ${cpuRatio((r) => r.resent)})`,
      `raw INSERT ${rate(resent.raw)} lines/s`,
      '≥ 0.5 of raw (in lines)',
      resent.ratio >= 0.5,
    );
    const newer = median((r) => r.newer);
    verdicts.figure('20 newer revisions per batch', `${rate(newer.value)} lines/s = ${newer.ratio.toFixed(2)} of raw (CPU ${cpuRatio((r) => r.newer)})`, `raw INSERT ${rate(newer.raw)} lines/s`, 'report', null);
  } finally {
    await pool.end();
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
