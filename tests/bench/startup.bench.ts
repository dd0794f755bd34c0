/**
 * Benchmark: how long the server takes from spawn to answering /healthz, and how much
 * memory it holds once idle, on PostgreSQL (a fresh database, migrated by a first start) and on embedded
 * PGlite (a temporary DATA_DIR, created by a first start). The server runs as `npm start` and the Docker
 * image run it: apps/server's start script (the esbuild bundle, `node dist/main.js`), without npm in
 * front, so the process spawned is the server itself and its /proc VmRSS is the server's memory.
 * The server bundle is rebuilt once per run (not the web app). Reference in the same run: a bare
 * `node -e ''` start on this machine, to read the figures against the machine's load.
 * Targets: ≤ 1 s on PostgreSQL, ≤ 2 s on PGlite, idle RSS ≤ 200 MB on PostgreSQL.
 *   npm run bench -- startup        RUNS=5 npm run bench -- startup
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { repoRoot } from '../../apps/server/src/db/paths.js';
import { serverStartArgs } from './support.js';

const RUNS = Number(process.env.RUNS ?? 3);
/** How long the server is left alone after its first requests before its memory is read. */
const SETTLE_MS = 5000;
const POSTGRES = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const verdict = (ok: boolean) => (ok ? 'meets target' : 'MISSES target');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** CPU time (user + system, every thread) the process has used, in ms; Linux counts it in 1/100 s. */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

interface Start {
  readyMs: number;
  /** CPU time spent until /healthz answered: less sensitive than wall time to other work on the machine. */
  readyCpuMs: number;
  /** Right after /healthz first answered. */
  readyRssMb: number;
  /** After a sign-in and a meeting list, then SETTLE_MS of nothing. */
  idleRssMb: number;
}

/** Spawns the server, times it to /healthz, signs in and reads a list, lets it settle, stops it. */
async function startOnce(args: string[], env: NodeJS.ProcessEnv): Promise<Start> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: path.join(repoRoot, 'apps/server'),
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${errors}`);
      const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
      if (ok) break;
      if (performance.now() - started > 120_000) throw new Error(`server not ready in 120 s:\n${errors}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const readyMs = performance.now() - started;
    const readyCpuMs = await cpuMs(child.pid!);
    const readyRssMb = await rssMb(child.pid!);
    const json = { 'content-type': 'application/json' };
    const login = (await (await fetch(`${base}/v1/auth/login`, { method: 'POST', headers: json, body: '{}' })).json()) as { token: string };
    const list = await fetch(`${base}/v1/meeting-list`, { headers: { ...json, authorization: `Bearer ${login.token}` } });
    if (!list.ok) throw new Error(`meeting list answered ${list.status}`);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return { readyMs, readyCpuMs, readyRssMb, idleRssMb: await rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function series(label: string, args: string[], env: NodeJS.ProcessEnv): Promise<Start> {
  const first = await startOnce(args, env);
  console.log(`  ${label} first start (creates and migrates the database): ${seconds(first.readyMs)}`);
  const runs: Start[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await startOnce(args, env));
  console.log(`  ${label} starts after the first: ${runs.map((r) => seconds(r.readyMs)).join(', ')}`);
  return {
    readyMs: median(runs.map((r) => r.readyMs)),
    readyCpuMs: median(runs.map((r) => r.readyCpuMs)),
    readyRssMb: median(runs.map((r) => r.readyRssMb)),
    idleRssMb: median(runs.map((r) => r.idleRssMb)),
  };
}

function bareNodeMs(): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', '']);
    times.push(performance.now() - started);
  }
  return median(times);
}

async function main() {
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('building the server failed');
  const args = serverStartArgs();
  console.log(`server command: node ${args.join(' ')} (apps/server), ${RUNS} starts after a first one, medians`);

  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  const name = `mbox_bench_startup_${process.pid}`;
  const url = new URL(POSTGRES);
  url.pathname = `/${name}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mbox-bench-startup-'));
  try {
    const postgres = await series('PostgreSQL', args, { DATABASE_URL: url.toString(), DATA_DIR: dataDir });
    const pglite = await series('PGlite', args, { DATABASE_URL: '', DATA_DIR: path.join(dataDir, 'pglite') });
    const bare = bareNodeMs();

    console.log('\nfigure                                        measured   target / reference');
    const row = (name: string, value: string, target: string) => console.log(`${name.padEnd(46)}${value.padStart(8)}   ${target}`);
    row('bare node start (reference, this machine now)', seconds(bare), '');
    row('start → /healthz, PostgreSQL', seconds(postgres.readyMs), `≤ 1.00 s  ${verdict(postgres.readyMs <= 1000)}`);
    row('start → /healthz, PGlite', seconds(pglite.readyMs), `≤ 2.00 s  ${verdict(pglite.readyMs <= 2000)}`);
    row('CPU time to /healthz, PostgreSQL', seconds(postgres.readyCpuMs), '');
    row('CPU time to /healthz, PGlite', seconds(pglite.readyCpuMs), '');
    row('RSS at /healthz, PostgreSQL', `${Math.round(postgres.readyRssMb)} MB`, '');
    row('idle RSS after first requests, PostgreSQL', `${Math.round(postgres.idleRssMb)} MB`, `≤ 200 MB  ${verdict(postgres.idleRssMb <= 200)}`);
    row('idle RSS after first requests, PGlite', `${Math.round(pglite.idleRssMb)} MB`, '(no target; the database runs in-process)');
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
