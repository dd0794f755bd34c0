import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { Jobs, type JobContext } from './jobs.js';

const log = pino({ level: 'silent' });

describe.each([
  ['PostgreSQL', false],
  ['PGlite', true],
])('jobs on %s', (_name, embedded) => {
  let db: TestDatabase | undefined;
  let jobs: Jobs | undefined;
  afterEach(async () => {
    await jobs?.stop(1000);
    await db?.destroy();
    jobs = undefined;
    db = undefined;
  });

  async function start(env: Record<string, string>, handler: (job: JobContext<'recap-send'>) => Promise<void>) {
    db = await createTestDatabase({ embedded });
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: '/nonexistent', JOB_POLL_SECONDS: '0.5', ...env });
    jobs = new Jobs(config, db, db.url, log);
    jobs.work('recap-send', handler);
    await jobs.start();
    return { db, jobs };
  }

  it('sends inside a transaction (a rollback leaves no job), runs it, and completes it in the handler transaction', { timeout: 60_000 }, async () => {
    const seen: string[] = [];
    const { db, jobs } = await start({}, async (job) => {
      seen.push(job.data.recapId);
      await db.prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        await jobs.complete('recap-send', job.id, tx);
      });
    });
    await expect(
      db.prisma.$transaction(async (tx) => {
        await jobs.send('recap-send', { recapId: 'rolled-back' }, { tx });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const id = await db.prisma.$transaction((tx) => jobs.send('recap-send', { recapId: 'committed' }, { tx }));
    expect(id).toBeTruthy();
    await expect.poll(async () => (await jobs.getJob('recap-send', id!))?.state, { timeout: 20_000 }).toBe('completed');
    expect(seen).toEqual(['committed']);
  });

  it('retries a failed job after its retry delay and tells the handler its last attempt', { timeout: 60_000 }, async () => {
    const attempts: { retryCount: number; lastAttempt: boolean }[] = [];
    const { jobs } = await start({ RECAP_RETRY_DELAY_SECONDS: '1' }, async (job) => {
      attempts.push({ retryCount: job.retryCount, lastAttempt: job.lastAttempt });
      if (job.retryCount < 2) throw new Error('temporary');
    });
    const id = await jobs.send('recap-send', { recapId: 'r' });
    await expect.poll(async () => (await jobs.getJob('recap-send', id!))?.state, { timeout: 30_000 }).toBe('completed');
    expect(attempts).toEqual([
      { retryCount: 0, lastAttempt: false },
      { retryCount: 1, lastAttempt: false },
      { retryCount: 2, lastAttempt: false },
    ]);
    const job = await jobs.getJob('recap-send', id!);
    expect(job).toMatchObject({ retryLimit: 6, retryDelay: 1, retryBackoff: true });
  });

  it('keeps a job that runs longer than its expiry alive by its heartbeat', { timeout: 60_000 }, async () => {
    let runs = 0;
    const { jobs } = await start({ JOB_EXPIRE_SECONDS: '3', JOB_MAINTENANCE_SECONDS: '1' }, async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 7000));
    });
    const id = await jobs.send('recap-send', { recapId: 'slow' });
    await expect.poll(async () => (await jobs.getJob('recap-send', id!))?.state, { timeout: 30_000 }).toBe('completed');
    expect(runs).toBe(1);
    expect((await jobs.getJob('recap-send', id!))?.retryCount).toBe(0);
  });
});
