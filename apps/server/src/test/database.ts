import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../db/database.js';
import { loadMigrations } from '../db/migrate.js';

const localServer = 'postgres://postgres@127.0.0.1:5432/postgres';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

let serverUrl: Promise<string | null> | undefined;

/** The order of sources (CONTRIBUTING.md, "Set-up"): TEST_DATABASE_URL, then the local PostgreSQL, then embedded PGlite. */
function pickServer(): Promise<string | null> {
  serverUrl ??= (async () => {
    if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
    if (await reachable(localServer)) return localServer;
    return null;
  })();
  return serverUrl;
}

export interface TestDatabase extends Database {
  url: string | null;
  /** Closes the connections and drops the database. */
  destroy(): Promise<void>;
}

function databaseUrl(server: string, name: string): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Applying migrations through the WASM engine takes seconds, so test databases are cloned from a
 * template migrated once per migration set (named by its hash; an advisory lock serialises workers).
 */
async function ensureTemplate(admin: pg.Client, server: string): Promise<string> {
  const migrations = await loadMigrations();
  const hash = createHash('sha256').update(JSON.stringify(migrations.migrationDirectories)).digest('hex');
  const template = `mbox_tpl_${hash.slice(0, 12)}`;
  await admin.query('SELECT pg_advisory_lock(724001)');
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (!rowCount) {
      await admin.query(`CREATE DATABASE ${template}`);
      const db = await openDatabase({ url: databaseUrl(server, template), dataDir: 'unused' });
      await db.close();
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock(724001)');
  }
  return template;
}

/**
 * CREATE DATABASE, retried while the template is still "being accessed by other users": right after a
 * template is migrated, the backends its pool closed may not have exited yet.
 */
async function createDatabase(admin: pg.Client, name: string, template: string | null): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * A new, empty, migrated database of its own for one test file. `fresh` skips the template and
 * applies the migrations to an empty database (the migration tests); `embedded` uses in-memory
 * PGlite even when a PostgreSQL server is reachable (what `npm start` runs on by default).
 */
export async function createTestDatabase(options: { fresh?: boolean; embedded?: boolean } = {}): Promise<TestDatabase> {
  const server = options.embedded ? null : await pickServer();
  if (!server) {
    const db = await openDatabase({ dataDir: 'memory://' });
    return { ...db, url: null, destroy: () => db.close() };
  }
  const name = `mbox_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    const template = options.fresh ? null : await ensureTemplate(admin, server);
    await createDatabase(admin, name, template);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(server, name);
  const db = await openDatabase({ url, dataDir: 'unused', migrate: options.fresh === true });
  return {
    ...db,
    url,
    async destroy() {
      await db.close();
      const drop = new pg.Client({ connectionString: server });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await drop.end();
    },
  };
}
