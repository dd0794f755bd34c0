/**
 * Offline summaries off the event loop: four offline summaries of a 3-hour meeting (20,000 lines) run at
 * once while `/healthz` is probed every 50 ms and a batch of 20 caption lines is posted every 100 ms.
 * Target: p99 of both ≤ 50 ms while the summaries run (docs/performance.md, "Offline summaries"). The
 * same probes with nothing else running are the reference, measured in the same run. Also printed:
 * each summary's time, the server's peak resident memory (VmHWM: main thread and worker threads) and
 * the CPU time of its main thread (from /proc: it does not grow with the machine's load, latencies do).
 *
 * The server runs in a child process (this file with `--serve`) with the start script's Node flags: the
 * real app on a fresh database on the local PostgreSQL, no LLM configured, so summaries go to the
 * offline engine's worker threads (OFFLINE_AI_THREADS, default one less than the cores).
 *   npm run bench -- offline-summary            LINES=20000 SUMMARIES=4 by default
 *   DATABASE=pglite npm run bench -- offline-summary      the embedded database (in the main thread)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { QMSUM_FIXTURE_MEETINGS, loadQmsumMeeting, toTranscript } from '../../apps/server/src/ai/eval/qmsum.js';
import { postJson, serverNodeFlags, Verdicts } from './support.js';

const LINES = Number(process.env.LINES ?? 20_000);
const SUMMARIES = Number(process.env.SUMMARIES ?? 4);
const PROMPTS = ['summary', 'c_summary', 'action', 'topic', 'decision', 'issue'] as const;
const START = Date.UTC(2025, 0, 6, 9, 0);
const REFERENCE_MS = 5_000;
const EMBEDDED = process.env.DATABASE === 'pglite';

interface Served {
  url: string;
  pid: number;
  token: string;
  extensionToken: string;
}

// ---------------------------------------------------------------- server side (child process)

async function serve(): Promise<void> {
  const { startTestApp } = await import('../../apps/server/src/test/app.js');
  const { makePremium } = await import('../../apps/server/src/test/fixtures.js');
  const app = await startTestApp({ LOG_LEVEL: 'warn' }, { embeddedDatabase: EMBEDDED });
  const token = await app.signIn('offline-bench@example.com');
  // Premium: no daily limit on the four generations.
  await makePremium(app, 'offline-bench@example.com');
  const issued = await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token });
  const served: Served = { url: app.url, pid: process.pid, token, extensionToken: issued.body.token };
  process.send?.(served);
  // The event loop's delay, to tell a blocked loop from a machine short of CPU (probes slow either way).
  let delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('message', (message) => {
    if (message === 'stop') void app.close().then(() => process.exit(0));
    if (message === 'delay') {
      process.send?.({ delay: { p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 } });
      delay.disable();
      delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
    }
  });
}

// ---------------------------------------------------------------- client side (this process)

function get(agent: Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

interface Delay {
  p50: number;
  p99: number;
  max: number;
}

/** The server's event-loop delay since the last call (ms). */
function eventLoopDelay(child: ChildProcess): Promise<Delay> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (typeof message !== 'object' || message === null || !('delay' in message)) return;
      child.off('message', onMessage);
      resolve((message as { delay: Delay }).delay);
    };
    child.on('message', onMessage);
    child.send('delay');
  });
}

/** Peak resident memory of a process so far (VmHWM), MB. */
function peakRssMb(pid: number): number {
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return kb / 1024;
}

/** CPU time (user + system) the main thread of a process has used so far, s (/proc/pid/task/pid/stat, 100 ticks a second). */
function mainThreadCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Probes `/healthz` every 50 ms and posts 20 caption lines every 100 ms until `until` resolves; latencies in ms. */
async function probe(served: Served, until: Promise<unknown>): Promise<{ health: number[]; ingest: number[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const health: number[] = [];
  const ingest: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  let n = 0;
  const sessionId = `probe-${Date.now()}`;
  const healthLoop = (async () => {
    while (!done) {
      const t = performance.now();
      if ((await get(agent, `${served.url}/healthz`)) !== 200) throw new Error('healthz failed');
      health.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const ingestLoop = (async () => {
    while (!done) {
      const lines = Array.from({ length: 20 }, (_, i) => {
        const k = n * 20 + i;
        return { captionId: `p${k}`, revision: 0, speaker: 'Ana Lima', text: `Probe line ${k}: the plan, the numbers and the questions.`, spokenAt: START + k * 1000, final: true };
      });
      n++;
      const t = performance.now();
      const r = await postJson(agent, `${served.url}/v1/transcript/lines`, served.extensionToken, { meeting: { sessionId, meetCode: 'abc-defg-hij', startedAt: START }, lines });
      if (r.status !== 200) throw new Error(`ingest answered ${r.status}: ${r.text}`);
      ingest.push(performance.now() - t);
      await new Promise((r2) => setTimeout(r2, 100));
    }
  })();
  await Promise.all([healthLoop, ingestLoop]);
  agent.destroy();
  return { health, ingest };
}

/** A 3-hour meeting: the QMSum fixture meetings' turns repeated to `LINES` lines, posted 500 at a time. */
async function seedLongMeeting(served: Served): Promise<string> {
  const turns = QMSUM_FIXTURE_MEETINGS.flatMap((name) => toTranscript(loadQmsumMeeting(name))).filter((t) => t.text.trim());
  const agent = new Agent({ keepAlive: true });
  let meetingKey = '';
  for (let from = 0; from < LINES; from += 500) {
    const lines = Array.from({ length: Math.min(500, LINES - from) }, (_, i) => {
      const k = from + i;
      const turn = turns[k % turns.length]!;
      return { captionId: `c${k}`, revision: 0, speaker: turn.speaker, text: turn.text.slice(0, 2000), spokenAt: START + k * 540, final: true };
    });
    const r = await postJson(agent, `${served.url}/v1/transcript/lines`, served.extensionToken, {
      meeting: { sessionId: 'three-hours', meetCode: 'abc-defg-hij', title: 'Three hours', startedAt: START },
      lines,
    });
    if (r.status !== 200) throw new Error(`seeding answered ${r.status}: ${r.text}`);
    meetingKey = (JSON.parse(r.text) as { meetingKey: string }).meetingKey;
  }
  agent.destroy();
  return meetingKey;
}

async function main(): Promise<void> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: ['--import', 'tsx', ...serverNodeFlags(), ...(process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/offline-bench-prof'] : [])],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const served = await new Promise<Served>((resolve) => child.once('message', (m) => resolve(m as Served)));
  try {
    const meetingKey = await seedLongMeeting(served);
    const idleRss = peakRssMb(served.pid);
    await eventLoopDelay(child);
    const referenceCpu = mainThreadCpuSeconds(served.pid);
    const reference = await probe(served, new Promise((r) => setTimeout(r, REFERENCE_MS)));
    const referenceDelay = await eventLoopDelay(child);
    const referenceShare = (mainThreadCpuSeconds(served.pid) - referenceCpu) / (REFERENCE_MS / 1000);
    const cpuBefore = mainThreadCpuSeconds(served.pid);

    const agent = new Agent({ keepAlive: true });
    const started = performance.now();
    const times: { prompt: string; seconds: number; status: number }[] = [];
    const summaries = Promise.all(
      Array.from({ length: SUMMARIES }, async (_, i) => {
        const prompt = PROMPTS[i % PROMPTS.length]!;
        const r = await postJson(agent, `${served.url}/v1/prompts`, served.token, { meetKey: meetingKey, promptKey: prompt });
        times.push({ prompt, seconds: (performance.now() - started) / 1000, status: r.status });
        if (r.status !== 200) throw new Error(`${prompt} answered ${r.status}: ${r.text}`);
      }),
    );
    const during = await probe(served, summaries);
    await summaries;
    const duringDelay = await eventLoopDelay(child);
    const wall = (performance.now() - started) / 1000;
    const summaryCpu = mainThreadCpuSeconds(served.pid) - cpuBefore;
    agent.destroy();
    const peakRss = peakRssMb(served.pid);

    console.log(`Offline summaries of a ${LINES.toLocaleString('en-US')}-line meeting, ${SUMMARIES} at once, ${EMBEDDED ? 'PGlite' : 'PostgreSQL'} (server pid ${served.pid})\n`);
    for (const t of times.sort((a, b) => a.seconds - b.seconds)) console.log(`  ${t.prompt.padEnd(10)} done after ${t.seconds.toFixed(1)} s`);
    console.log(`\n  peak RSS of the server: ${idleRss.toFixed(0)} MB before the summaries, ${peakRss.toFixed(0)} MB after\n`);
    const verdicts = new Verdicts({ name: 28, value: 30, reference: 30 });
    const row = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} p99 ${percentile(values, 99).toFixed(1)} ms`;
    verdicts.figure(`/healthz (${during.health.length} probes)`, row(during.health), row(reference.health), 'p99 ≤ 50 ms', percentile(during.health, 99) <= 50);
    verdicts.figure(`ingest (${during.ingest.length} batches)`, row(during.ingest), row(reference.ingest), 'p99 ≤ 50 ms', percentile(during.ingest, 99) <= 50);
    const delayRow = (d: Delay) => `p50 ${d.p50.toFixed(1)} p99 ${d.p99.toFixed(1)} max ${d.max.toFixed(0)} ms`;
    console.log(`${'server event-loop delay'.padEnd(28)} ${delayRow(duringDelay).padEnd(30)} reference ${delayRow(referenceDelay)}`);
    console.log(
      `${'server main thread CPU'.padEnd(28)} ${`${summaryCpu.toFixed(2)} s in ${wall.toFixed(1)} s (${((100 * summaryCpu) / wall).toFixed(0)} %)`.padEnd(30)} reference ${(100 * referenceShare).toFixed(0)} % (the probes alone)`,
    );
    console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} on ${availableParallelism()} cores`);
    process.exitCode = verdicts.missed > 0 ? 1 : 0;
  } finally {
    child.send('stop');
    await new Promise((r) => child.once('exit', r));
  }
}

if (process.argv.includes('--serve')) void serve();
else await main();
