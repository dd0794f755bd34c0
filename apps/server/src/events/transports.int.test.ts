import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalTransport, type BusEvent, type EventTransport } from '../events.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { createEventTransport } from './create-transport.js';
import { PgNotifyTransport } from './pg-notify.js';
import { RedisTransport } from './redis.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const log = pino({ level: 'silent' });

/** A transport started with a deliver callback that records what arrives. */
async function receiver(transport: EventTransport) {
  const received: BusEvent[] = [];
  let notify = () => {};
  await transport.start((event) => {
    received.push(event);
    notify();
  });
  return {
    transport,
    received,
    /** Resolves once `done()` holds, checked on every delivery (the test's timeout bounds the wait). */
    async until(done: () => boolean): Promise<BusEvent[]> {
      while (!done()) await new Promise<void>((resolve) => (notify = resolve));
      return received;
    },
    waitFor(count: number): Promise<BusEvent[]> {
      return this.until(() => received.length >= count);
    },
  };
}

const lines = (meetingId: string, messageIds: string[]): BusEvent => ({
  name: 'meeting.lines',
  payload: { userId: 'u1', meetingId, messageIds },
});

/** 60 kB of JSON with 2-, 3- and 4-byte characters: eight NOTIFY parts or more. */
const bigEvent = lines(
  'big',
  Array.from({ length: 600 }, (_, i) => `line-${i}-äöü€😀-${'x'.repeat(80)}`),
);

describe('event transports', () => {
  let database: TestDatabase;
  const started: EventTransport[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((t) => t.close()));
  });
  afterAll(async () => {
    await database.destroy();
  });

  const kinds = [
    ['PostgreSQL LISTEN/NOTIFY', (channel: string) => new PgNotifyTransport(database.url!, channel, log)],
    ['Redis pub/sub', (channel: string) => new RedisTransport(REDIS_URL, channel, log)],
  ] as const;

  describe.each(kinds)('%s', (_kind, create) => {
    async function pair() {
      const channel = `mbox_test_${randomBytes(6).toString('hex')}`;
      const a = await receiver(create(channel));
      const b = await receiver(create(channel));
      started.push(a.transport, b.transport);
      return { a, b };
    }

    it('delivers every event of either instance to both, in one order, each sender in its own order', async () => {
      const { a, b } = await pair();
      for (let i = 0; i < 50; i += 1) {
        a.transport.publish(lines('m', [`a${i}`]));
        b.transport.publish(lines('m', [`b${i}`]));
      }
      const onA = await a.waitFor(100);
      const onB = await b.waitFor(100);
      expect(onB).toEqual(onA);
      const ids = onA.map((event) => (event.payload as { messageIds: string[] }).messageIds[0]!);
      expect(ids.filter((id) => id.startsWith('a'))).toEqual(Array.from({ length: 50 }, (_, i) => `a${i}`));
      expect(ids.filter((id) => id.startsWith('b'))).toEqual(Array.from({ length: 50 }, (_, i) => `b${i}`));
    });

    it('carries an event far over 8 kB intact, between small ones', async () => {
      const { a, b } = await pair();
      expect(Buffer.byteLength(JSON.stringify(bigEvent))).toBeGreaterThan(60_000);
      a.transport.publish(lines('m', ['before']));
      a.transport.publish(bigEvent);
      a.transport.publish(lines('m', ['after']));
      expect(await b.waitFor(3)).toEqual([lines('m', ['before']), bigEvent, lines('m', ['after'])]);
      expect(await a.waitFor(3)).toEqual(b.received);
    });

    it('carries a burst of large events whole and in order (more parts than one NOTIFY statement takes)', async () => {
      const { a, b } = await pair();
      const burst = Array.from({ length: 40 }, (_, i) => ({ ...bigEvent, payload: { ...bigEvent.payload, meetingId: `big-${i}` } }) as BusEvent);
      for (const event of burst) a.transport.publish(event);
      expect(await b.waitFor(40)).toEqual(burst);
    });

    it('sends what was published before close', async () => {
      const { a, b } = await pair();
      a.transport.publish(lines('m', ['last words']));
      await a.transport.close();
      expect(await b.waitFor(1)).toEqual([lines('m', ['last words'])]);
    });
  });

  describe('PostgreSQL LISTEN/NOTIFY', () => {
    async function listeners(admin: pg.Client): Promise<number[]> {
      const { rows } = await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = 'mbox-events-listen' AND datname = current_database() ORDER BY pid",
      );
      return rows.map((row) => row.pid);
    }

    it('is needed: PostgreSQL refuses a NOTIFY payload of 8000 bytes', async () => {
      const admin = new pg.Client({ connectionString: database.url! });
      await admin.connect();
      try {
        await expect(admin.query("SELECT pg_notify('mbox_probe', repeat('x', 8000))")).rejects.toThrow(/payload string too long/);
        await admin.query("SELECT pg_notify('mbox_probe', repeat('x', 7999))");
      } finally {
        await admin.end();
      }
    });

    it('listens again after its connection is terminated, and events flow', async () => {
      const channel = `mbox_test_${randomBytes(6).toString('hex')}`;
      const a = await receiver(new PgNotifyTransport(database.url!, channel, log));
      const b = await receiver(new PgNotifyTransport(database.url!, channel, log));
      started.push(a.transport, b.transport);
      const admin = new pg.Client({ connectionString: database.url! });
      await admin.connect();
      try {
        const before = await listeners(admin);
        expect(before).toHaveLength(2);
        await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [before]);

        // Events published while nobody listens are lost; probe until both listen again.
        let probes = 0;
        await vi.waitFor(
          () => {
            probes += 1;
            a.transport.publish(lines('probe', [String(probes)]));
            expect(a.received.length).toBeGreaterThan(0);
            expect(b.received.length).toBeGreaterThan(0);
          },
          { timeout: 20_000, interval: 200 },
        );
        const after = await listeners(admin);
        expect(after).toHaveLength(2);
        expect(after.filter((pid) => before.includes(pid))).toEqual([]);

        // Probes still on their way may arrive first; the big event then arrives whole.
        a.transport.publish(bigEvent);
        await b.until(() => isDeepStrictEqual(b.received.at(-1), bigEvent));
        expect(b.received.at(-1)).toEqual(bigEvent);
      } finally {
        await admin.end();
      }
    });

    it('ignores notifications on its channel that are no event', async () => {
      const channel = `mbox_test_${randomBytes(6).toString('hex')}`;
      const a = await receiver(new PgNotifyTransport(database.url!, channel, log));
      started.push(a.transport);
      const admin = new pg.Client({ connectionString: database.url! });
      await admin.connect();
      try {
        for (const payload of ['hello', 'x.1|1|1|not json', 'x.2|1|1|[1,2]', 'x.3|1|1|{"name":"meeting.lines"}']) {
          await admin.query('SELECT pg_notify($1, $2)', [channel, payload]);
        }
        await admin.query('SELECT pg_notify($1, $2)', [channel, `x.4|1|1|${JSON.stringify(lines('m', ['real']))}`]);
      } finally {
        await admin.end();
      }
      expect(await a.waitFor(1)).toEqual([lines('m', ['real'])]);
    });
  });

  it('picks the transport: none shared on embedded PGlite, Redis when REDIS_URL is set, else NOTIFY', async () => {
    const channel = 'mbox_events';
    expect(await createEventTransport({ REDIS_URL, EVENTS_CHANNEL: channel }, undefined, log)).toBeInstanceOf(LocalTransport);
    expect(await createEventTransport({ REDIS_URL: undefined, EVENTS_CHANNEL: channel }, null, log)).toBeInstanceOf(LocalTransport);
    const redis = await createEventTransport({ REDIS_URL, EVENTS_CHANNEL: channel }, database.url, log);
    const notify = await createEventTransport({ REDIS_URL: undefined, EVENTS_CHANNEL: channel }, database.url, log);
    expect(redis).toBeInstanceOf(RedisTransport);
    expect(notify).toBeInstanceOf(PgNotifyTransport);
    started.push(redis, notify);
  });
});
