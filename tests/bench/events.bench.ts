/**
 * Live events across instances: what a transport adds between publishing an
 * event and its delivery, on the publishing instance (its own event comes back through the transport)
 * and on a second one, next to the in-process delivery of a single instance measured in the same run.
 * Two transports in this process stand for two instances (each has its own connections, as two
 * processes would). Three payloads: a one-line event, a 20-line batch with its rows (~6 kB, one
 * NOTIFY), and 60 kB (chunked into 9 NOTIFY parts). Then a burst: events back to back, how many per
 * second reach the other instance.
 *   npm run bench -- events        ROUNDS=1000 per payload by default; needs the local PostgreSQL and Redis
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { LocalTransport, type BusEvent, type EventTransport } from '../../apps/server/src/events.js';
import { PgNotifyTransport } from '../../apps/server/src/events/pg-notify.js';
import { RedisTransport } from '../../apps/server/src/events/redis.js';
import { createTestDatabase } from '../../apps/server/src/test/database.js';

const ROUNDS = Number(process.env.ROUNDS ?? 1000);
const BURST = 5000;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = pino({ level: 'warn' });

function row(i: number, textLength: number) {
  return {
    key: `cm${randomBytes(11).toString('hex')}`,
    captionId: `c${i}`,
    revision: 0,
    speaker: 'Ana Lima',
    text: 'Wir verschieben das Release auf Donnerstag nach der Sicherheitsprüfung. '.repeat(8).slice(0, textLength),
    spokenAt: Date.UTC(2025, 0, 6, 9) + i * 1000,
    final: true,
  };
}

const payloads: [string, (seq: number) => BusEvent][] = [
  ['1 line', (seq) => ({ name: 'meeting.changed', payload: { userId: 'u', meetingId: String(seq), kind: 'updated' } })],
  ['20 lines (~6 kB)', (seq) => ({ name: 'meeting.lines', payload: { userId: 'u', meetingId: String(seq), lines: Array.from({ length: 20 }, (_, i) => row(i, 200)) } as never })],
  ['60 kB (9 NOTIFY parts)', (seq) => ({ name: 'meeting.lines', payload: { userId: 'u', meetingId: String(seq), lines: Array.from({ length: 120 }, (_, i) => row(i, 400)) } as never })],
];

/** Started transports whose deliveries resolve the waiter of the event's sequence number (meetingId). */
async function instances(create: () => EventTransport, count: number) {
  const waiters = new Map<string, () => void>();
  const transports: EventTransport[] = [];
  for (let i = 0; i < count; i += 1) {
    const transport = create();
    await transport.start((event) => waiters.get(`${i}:${(event.payload as { meetingId: string }).meetingId}`)?.());
    transports.push(transport);
  }
  const arrival = (instance: number, seq: number) =>
    new Promise<number>((resolve) => waiters.set(`${instance}:${seq}`, () => resolve(performance.now())));
  return { transports, arrival, waiters };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

async function measure(name: string, create: () => EventTransport, count: number): Promise<void> {
  const { transports, arrival, waiters } = await instances(create, count);
  let seq = 0;
  for (const [label, make] of payloads) {
    const own: number[] = [];
    const other: number[] = [];
    for (let round = 0; round < ROUNDS + 50; round += 1) {
      seq += 1;
      const arrivals = transports.map((_, i) => arrival(i, seq));
      const sent = performance.now();
      transports[0]!.publish(make(seq));
      const [onOwn, onOther] = await Promise.all(arrivals);
      if (round < 50) continue; // warm-up
      own.push(onOwn! - sent);
      if (onOther !== undefined) other.push(onOther - sent);
    }
    waiters.clear();
    own.sort((a, b) => a - b);
    other.sort((a, b) => a - b);
    const cross = other.length ? `, other instance p50 ${ms(percentile(other, 50))} p99 ${ms(percentile(other, 99))}` : '';
    console.log(`${name.padEnd(16)} ${label.padEnd(18)} own p50 ${ms(percentile(own, 50))} p99 ${ms(percentile(own, 99))}${cross}`);
  }
  // Burst: BURST one-line events back to back; rate at which the last instance receives them.
  const last = transports.length - 1;
  const done = arrival(last, seq + BURST);
  const started = performance.now();
  for (let i = 1; i <= BURST; i += 1) transports[0]!.publish(payloads[0]![1](seq + i));
  const finished = await done;
  console.log(`${name.padEnd(16)} burst of ${BURST}: ${Math.round(BURST / ((finished - started) / 1000))} events/s reach ${last ? 'the other instance' : 'the subscriber'}`);
  await Promise.all(transports.map((t) => t.close()));
}

const database = await createTestDatabase();
if (!database.url) throw new Error('the events bench needs the local PostgreSQL (or TEST_DATABASE_URL)');
const channel = `mbox_bench_${randomBytes(6).toString('hex')}`;
try {
  console.log(`rounds per payload: ${ROUNDS} (after 50 warm-up); one process, two transports = two instances`);
  await measure('in-process', () => new LocalTransport(), 1);
  await measure('LISTEN/NOTIFY', () => new PgNotifyTransport(database.url!, channel, log), 2);
  await measure('Redis pub/sub', () => new RedisTransport(REDIS_URL, channel, log), 2);
} finally {
  await database.destroy();
}
