import { mkdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool } from 'pg';
import type { SqlMigrationAwareDriverAdapterFactory, SqlQueryable } from '@prisma/driver-adapter-utils';
import type { PrismaClient } from '../generated/prisma/client.js';
import { lockDataDir } from './data-dir-lock.js';
import { applyMigrations } from './migrate.js';
import { createPGlite, PGliteAdapter } from './pglite.js';
import { preparedName } from './prepared.js';

export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  kind: 'postgres' | 'pglite';
  /** The embedded database, when PGlite is used (pg-boss runs on it in-process). */
  pglite?: PGlite;
  adapter: SqlMigrationAwareDriverAdapterFactory;
  /** The driver Prisma sends through, for hot statements (hot-rows.ts): the same pool or PGlite. */
  hot: SqlQueryable;
  appliedMigrations: string[];
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent, embedded PGlite stores data in `dataDir`. */
  url?: string;
  /** Folder for PGlite; `memory://` keeps it in memory (tests). */
  dataDir: string;
  migrate?: boolean;
}

/**
 * PGlite runs no autovacuum, so without this its planner never learns how big a table is: a page of a
 * long meeting then scans and sorts every later line (about 180 ms a page of a 50,000-line meeting
 * against 4 ms with statistics; docs/performance.md, "Meeting size"). ANALYZE samples each table, so it
 * stays cheap however much is stored.
 */
const PGLITE_ANALYZE_EVERY_MS = 10 * 60_000;

function keepPlannerStatistics(pglite: PGlite): () => void {
  const analyze = () => void pglite.exec('ANALYZE').catch(() => {});
  analyze();
  const timer = setInterval(analyze, PGLITE_ANALYZE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Opens the database named by the config and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let adapter: SqlMigrationAwareDriverAdapterFactory;
  let pool: Pool | undefined;
  let pglite: PGlite | undefined;
  let unlock: (() => Promise<void>) | undefined;
  // Prisma's client loads while the database opens rather than before.
  const prismaClient = import('../generated/prisma/client.js');
  // Each kind's driver is loaded only when it is used: a deployment runs on one of them.
  if (options.url) {
    const [{ PrismaPg }, { default: pg }] = await Promise.all([import('@prisma/adapter-pg'), import('pg')]);
    // Made here rather than by the adapter, so that hot statements share Prisma's connections. Idle
    // connections stay open: pg closed them after 10 s, and under a steady load the pool then kept opening
    // new ones, each a new backend that prepares the hot statements again while posts wait behind it.
    pool = new pg.Pool({ connectionString: options.url, max: 10, idleTimeoutMillis: 0 });
    // A connection the server ends (a restart, a dropped database) is left out by the pool and replaced on
    // next use; its error must have a listener, also after Prisma disconnects, or it ends the process.
    pool.on('error', () => {});
    adapter = new PrismaPg(pool, { statementNameGenerator: preparedName });
  } else {
    if (!options.dataDir.startsWith('memory://')) {
      await mkdir(options.dataDir, { recursive: true });
      // Before PGlite opens the files: a second opener would already corrupt the first one's state.
      unlock = await lockDataDir(options.dataDir);
    }
    try {
      pglite = await createPGlite(options.dataDir);
    } catch (error) {
      await unlock?.();
      throw error;
    }
    adapter = new PGliteAdapter(pglite);
  }
  try {
    const appliedMigrations = options.migrate === false ? [] : await applyMigrations(adapter);
    const { PrismaClient } = await prismaClient;
    const prisma = new PrismaClient({ adapter });
    // On PostgreSQL a second adapter over the same pool; on PGlite over the same database.
    const hot = await adapter.connect();
    const stopAnalyzing = pglite ? keepPlannerStatistics(pglite) : undefined;
    return {
      prisma,
      kind: pglite ? 'pglite' : 'postgres',
      pglite,
      adapter,
      hot,
      appliedMigrations,
      async close() {
        stopAnalyzing?.();
        await prisma.$disconnect();
        await hot.dispose();
        await pool?.end();
        await pglite?.close();
        await unlock?.();
      },
    };
  } catch (error) {
    await pool?.end();
    await pglite?.close();
    await unlock?.();
    throw error;
  }
}
