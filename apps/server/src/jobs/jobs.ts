import type { PGlite } from '@electric-sql/pglite';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Prisma } from '../generated/prisma/client.js';
import { queuePolicies, type QueueName, type QueuePayloads } from './queues.js';

/** pg-boss's schema in the app's database. */
export const JOBS_SCHEMA = 'pgboss';

export interface JobContext<Q extends QueueName> {
  id: string;
  queue: Q;
  data: QueuePayloads[Q];
  /** 0 on the first attempt. */
  retryCount: number;
  retryLimit: number;
  /** No retry follows if this attempt fails: the handler should record the failure for good. */
  lastAttempt: boolean;
}

export type JobHandler<Q extends QueueName> = (job: JobContext<Q>) => Promise<void>;

export interface SendOptions {
  /** Enqueue inside this Prisma transaction: the job exists exactly when the transaction commits. */
  tx?: Prisma.TransactionClient;
  startAfterSeconds?: number;
  singletonKey?: string;
}

/** pg-boss runs its SQL through a Prisma transaction, so a job is sent or completed atomically with app rows. */
function transactionDb(tx: Prisma.TransactionClient): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const args = (values ?? []).map((v: unknown) => (v === undefined ? null : v));
      return { rows: await tx.$queryRawUnsafe<unknown[]>(text, ...args) };
    },
  };
}

/** pg-boss on embedded PGlite, in-process; its schema scripts are several statements without parameters. */
function pgliteDb(pglite: PGlite): PgBoss.Db {
  return {
    async executeSql(text, values) {
      if (values?.length) {
        const args = values.map((v: unknown) => (v === undefined ? null : v));
        return { rows: (await pglite.query(text, args)).rows };
      }
      const results = await pglite.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Durable jobs on the app's own database (pg-boss 10). Workers are registered before start. Each
 * worker fetches one job at a time and, while it runs, renews the job's heartbeat (its `started_on`)
 * so a short expiry (JOB_EXPIRE_SECONDS) only catches jobs whose process died: those are retried
 * within JOB_EXPIRE_SECONDS + JOB_MAINTENANCE_SECONDS + the retry delay of a restart, not after
 * pg-boss's 15-minute default.
 */
export class Jobs {
  readonly boss: PgBoss;
  private readonly handlers = new Map<QueueName, JobHandler<QueueName>>();
  private readonly startHooks: (() => Promise<unknown>)[] = [];
  private readonly stopping = new AbortController();
  private readonly running = new Set<Promise<void>>();
  private started = false;

  constructor(
    private readonly config: Config,
    database: Pick<Database, 'kind' | 'pglite'>,
    /** PostgreSQL connection string (when the database is not PGlite). */
    url: string | null | undefined,
    private readonly log: Logger,
  ) {
    const common = {
      schema: JOBS_SCHEMA,
      // Queues are created by start(); workers are this class's own loops.
      supervise: true,
      schedule: false,
      maintenanceIntervalSeconds: config.JOB_MAINTENANCE_SECONDS,
      expireInSeconds: config.JOB_EXPIRE_SECONDS,
      // Finished jobs are kept a week for inspection, then dropped.
      deleteAfterDays: 7,
    } satisfies PgBoss.ConstructorOptions;
    if (database.kind === 'pglite') {
      if (!database.pglite) throw new Error('PGlite database without its handle');
      this.boss = new PgBoss({ ...common, db: pgliteDb(database.pglite) });
    } else {
      if (!url) throw new Error('Jobs need the PostgreSQL connection string');
      this.boss = new PgBoss({ ...common, connectionString: url, max: 3, application_name: 'mbox-jobs' });
    }
    this.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
  }

  /** Runs `handler` for every job of `queue` (one at a time per process). Register before start(). */
  work<Q extends QueueName>(queue: Q, handler: JobHandler<Q>): void {
    if (this.started) throw new Error(`Worker for ${queue} registered after the queue started`);
    this.handlers.set(queue, handler as unknown as JobHandler<QueueName>);
  }

  /** Runs once the queues exist, before workers fetch (e.g. the first job of a self-rescheduling chain). */
  onStart(hook: () => Promise<unknown>): void {
    this.startHooks.push(hook);
  }

  /** Enqueues a job; inside `options.tx` it commits or rolls back with the transaction. Null when a singleton is already waiting. */
  async send<Q extends QueueName>(queue: Q, data: QueuePayloads[Q], options: SendOptions = {}): Promise<string | null> {
    return this.boss.send(queue, data, {
      ...(options.tx ? { db: transactionDb(options.tx) } : {}),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    });
  }

  /**
   * Completes a job inside the transaction that records its effect, so the effect and the job's end
   * commit together. The worker's own completion afterwards changes nothing.
   */
  async complete(queue: QueueName, jobId: string, tx: Prisma.TransactionClient): Promise<void> {
    await this.boss.complete(queue, jobId, {}, { db: transactionDb(tx) });
  }

  /** A job with its retry state (tests and diagnostics). */
  getJob<Q extends QueueName>(queue: Q, id: string) {
    return this.boss.getJobById<QueuePayloads[Q]>(queue, id);
  }

  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    const policies = queuePolicies(this.config);
    for (const [name, policy] of Object.entries(policies) as [QueueName, (typeof policies)[QueueName]][]) {
      const options = { name, ...policy, expireInSeconds: this.config.JOB_EXPIRE_SECONDS };
      // Config may change between runs (retry delay): the stored queue follows it.
      if (await this.boss.getQueue(name)) await this.boss.updateQueue(name, options);
      else await this.boss.createQueue(name, options);
    }
    for (const hook of this.startHooks) await hook();
    this.started = true;
    for (const [queue, handler] of this.handlers) this.track(this.loop(queue, handler));
  }

  /** Stops fetching, lets running jobs finish (a job still running after `timeoutMs` is retried later), stops pg-boss. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.stopping.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
    await this.boss.stop({ graceful: false, wait: true, timeout: 1000 });
  }

  private track(promise: Promise<void>): void {
    this.running.add(promise);
    void promise.finally(() => this.running.delete(promise));
  }

  private async loop(queue: QueueName, handler: JobHandler<QueueName>): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      let job: PgBoss.JobWithMetadata<QueuePayloads[QueueName]> | undefined;
      try {
        [job] = await this.boss.fetch<QueuePayloads[QueueName]>(queue, { includeMetadata: true, batchSize: 1 });
      } catch (error) {
        if (!signal.aborted) this.log.error({ err: error, queue }, 'fetching a job failed');
      }
      if (job) await this.run(queue, job, handler);
      else await sleep(this.config.JOB_POLL_SECONDS * 1000, signal);
    }
  }

  private async run(
    queue: QueueName,
    job: PgBoss.JobWithMetadata<QueuePayloads[QueueName]>,
    handler: JobHandler<QueueName>,
  ): Promise<void> {
    const heartbeat = setInterval(
      () => {
        this.boss
          .getDb()
          .executeSql(`UPDATE ${JOBS_SCHEMA}.job SET started_on = now() WHERE name = $1 AND id = $2 AND state = 'active'`, [
            queue,
            job.id,
          ])
          .catch((error: unknown) => this.log.warn({ err: error, queue, jobId: job.id }, 'job heartbeat failed'));
      },
      (this.config.JOB_EXPIRE_SECONDS * 1000) / 3,
    );
    try {
      await handler({
        id: job.id,
        queue,
        data: job.data,
        retryCount: job.retryCount,
        retryLimit: job.retryLimit,
        lastAttempt: job.retryCount >= job.retryLimit,
      });
      await this.boss.complete(queue, job.id);
    } catch (error) {
      this.log.warn({ err: error, queue, jobId: job.id, retryCount: job.retryCount }, 'job failed');
      await this.boss.fail(queue, job.id, { message: errorMessage(error) }).catch((failError: unknown) => {
        this.log.error({ err: failError, queue, jobId: job.id }, 'recording a job failure failed');
      });
    } finally {
      clearInterval(heartbeat);
    }
  }
}
