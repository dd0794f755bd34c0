import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList } from '@prisma/schema-engine-wasm';
import { migrationsDir, schemaPath } from './paths.js';
import type { openSchemaEngine } from './schema-engine.js';

const noFilters = { externalTables: [], externalEnums: [] };

/** The schema engine, loaded only when a migration is to be applied or diffed. */
async function openEngine(...args: Parameters<typeof openSchemaEngine>) {
  const engine = await import('./schema-engine.js');
  return engine.openSchemaEngine(...args);
}

/** Reads prisma/migrations in Prisma's standard layout (`<name>/migration.sql`, `migration_lock.toml`). */
export async function loadMigrations(dir = migrationsDir): Promise<MigrationList> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const lockPath = join(dir, 'migration_lock.toml');
  return {
    baseDir: dir,
    lockfile: { path: 'migration_lock.toml', content: await readFile(lockPath, 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      folders.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: await readFile(join(dir, name, 'migration.sql'), 'utf8').then(
            (ok) => ({ tag: 'ok' as const, value: ok }),
            (error: Error) => ({ tag: 'error' as const, value: error.message }),
          ),
        },
      })),
    ),
  };
}

async function readSchema() {
  return { path: schemaPath, content: await readFile(schemaPath, 'utf8') };
}

/**
 * Names of the migrations `_prisma_migrations` records as finished, or null when that cannot be read
 * (a new database has no such table yet).
 */
async function finishedMigrations(adapter: SqlMigrationAwareDriverAdapterFactory): Promise<Set<string> | null> {
  const connection = await adapter.connect();
  try {
    const result = await connection.queryRaw({
      sql: 'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      args: [],
      argTypes: [],
    });
    return new Set(result.rows.map((row) => String(row[0])));
  } catch {
    return null;
  } finally {
    await connection.dispose();
  }
}

/**
 * Applies pending migrations; already-applied ones are recorded in `_prisma_migrations` and skipped.
 * When every migration folder is recorded as finished, the schema engine (a WASM module that takes a
 * few hundred milliseconds to compile) is not loaded at all: the usual start-up has nothing to apply.
 */
export async function applyMigrations(adapter: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  const migrationsList = await loadMigrations();
  const finished = await finishedMigrations(adapter);
  if (finished && migrationsList.migrationDirectories.every((folder) => finished.has(folder.path))) return [];
  const engine = await openEngine(adapter, await readSchema());
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList,
      filters: noFilters,
    });
    return appliedMigrationNames;
  } finally {
    engine.free();
  }
}

/**
 * SQL that would bring the migrations up to `schema.prisma`; empty when they already match.
 * Computed offline, with no database: the drift test and `db:new-migration` both use it.
 */
export async function pendingSchemaChange(adapter: SqlMigrationAwareDriverAdapterFactory): Promise<string> {
  const schema = await readSchema();
  const engine = await openEngine(adapter, schema);
  try {
    const migrations = await loadMigrations();
    const result = await engine.diff({
      from: migrations.migrationDirectories.length ? { tag: 'migrations', ...migrations } : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: [schema] },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    const sql = result.stdout ?? '';
    return /^\s*(-- This is an empty migration\.)?\s*$/.test(sql) ? '' : sql;
  } finally {
    engine.free();
  }
}
