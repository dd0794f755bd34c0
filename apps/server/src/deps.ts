import type { Logger } from 'pino';
import type { AiEngine } from './ai/index.js';
import type { Config } from './config.js';
import type { Database, Db } from './db/database.js';
import type { EventBus } from './events.js';
import type { Jobs } from './jobs/jobs.js';
import type { Secrets } from './secrets.js';

/** What services need from the running server; built once in main.ts (and by tests). */
export interface AppDeps {
  /** Summaries, questions, translations and line fixes: the configured LLM or the offline engine. */
  ai: AiEngine;
  config: Config;
  database: Database;
  db: Db;
  events: EventBus;
  /** Durable jobs (pg-boss) on the same database: send, work, complete inside a transaction. */
  jobs: Jobs;
  log: Logger;
  secrets: Secrets;
  /** Aborted when the server shuts down: ends live subscriptions so in-flight requests can finish. */
  shutdown: AbortSignal;
}
