/** Plumbing the server benchmarks share: HTTP posts over a keep-alive agent, the forked server's CPU, verdicts. */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request, type Agent } from 'node:http';
import type pg from 'pg';

/** apps/server's `start` script, e.g. `node --max-semi-space-size=64 dist/main.js`: node's arguments, run from apps/server. */
export function serverStartArgs(): string[] {
  const manifest = JSON.parse(readFileSync(new URL('../../apps/server/package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  const [program, ...args] = manifest.scripts.start.split(/\s+/);
  if (program !== 'node') throw new Error(`apps/server's start script does not run node directly: ${manifest.scripts.start}`);
  return args;
}

/**
 * The V8 and Node flags of the start script, for a bench that runs the server in a child process under
 * tsx: measured as production runs it.
 */
export function serverNodeFlags(): string[] {
  return serverStartArgs().filter((arg) => arg.startsWith('--'));
}

/** POSTs JSON with a bearer token; resolves with the status and the whole answer. */
export function postJson(agent: Agent, url: string, token: string, body: unknown): Promise<{ status: number; text: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${token}` },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export function cpuSeconds(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1e6;
}

/** CPU seconds the forked server has used so far (it answers the message 'cpu' with its process.cpuUsage()). */
export function serverCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (typeof message !== 'object' || message === null || !('cpu' in message)) return;
      child.off('message', onMessage);
      resolve(cpuSeconds((message as { cpu: NodeJS.CpuUsage }).cpu));
    };
    child.on('message', onMessage);
    child.send('cpu');
  });
}

/**
 * CPU seconds used so far by the PostgreSQL backends on the pool's database, by application_name: those of
 * `ownName` (a reference client's) under 'own', every other one (the server's) under 'server'.
 */
export async function backendsCpu(pool: pg.Pool, ownName: string): Promise<{ own: number; server: number }> {
  const { rows } = await pool.query<{ pid: number; application_name: string }>(
    'SELECT pid, application_name FROM pg_stat_activity WHERE datname = current_database()',
  );
  const cpu = { own: 0, server: 0 };
  for (const { pid, application_name } of rows) {
    try {
      // utime and stime, in clock ticks (USER_HZ = 100), after the process name.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      cpu[application_name === ownName ? 'own' : 'server'] += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // A backend that ended in between, or a database on another machine: not counted.
    }
  }
  return cpu;
}

/**
 * Reads a `text/event-stream` answer as the SSE standard parses one: lines, `event` and `data` fields,
 * an event dispatched at each blank line (a comment, `id` and `retry` are read and ignored). Benchmark
 * clients stand for browsers on other machines; here they share the server's two cores, so they read
 * as cheaply as node:http allows. The eventsource package reads through fetch and web streams: the live
 * bench's client used 0.3 core at 1,000 meetings and its own event-loop delays were part of every latency.
 */
export function readEventStream(onEvent: (name: string, data: string) => void): (chunk: string) => void {
  let buffer = '';
  let name = '';
  let data: string[] = [];
  return (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line === '') {
        if (data.length) onEvent(name || 'message', data.join('\n'));
        name = '';
        data = [];
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
      if (field === 'event') name = value;
      else if (field === 'data') data.push(value);
    }
  };
}

/** Prints one figure beside its reference and target, and counts the targets missed. */
export class Verdicts {
  missed = 0;

  constructor(private readonly widths: { name: number; value: number; reference: number }) {}

  figure(name: string, value: string, reference: string, target: string, met: boolean | null): void {
    if (met === false) this.missed++;
    const verdict = met === null ? '' : met ? '  MET' : '  NOT MET';
    const { widths } = this;
    console.log(`${name.padEnd(widths.name)} ${value.padEnd(widths.value)} reference ${reference.padEnd(widths.reference)} target ${target}${verdict}`);
  }
}
