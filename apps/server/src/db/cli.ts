// `npm run db:migrate` applies pending migrations; `npm run db:new-migration -- <name>` writes the SQL that
// brings prisma/migrations up to prisma/schema.prisma into a new folder; `npm run db:status` shows drift.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase } from './database.js';
import { loadMigrations, pendingSchemaChange } from './migrate.js';
import { migrationsDir } from './paths.js';
import { createPGlite, PGliteAdapter } from './pglite.js';

const [command, name] = process.argv.slice(2);

async function withScratchAdapter<T>(run: (adapter: PGliteAdapter) => Promise<T>): Promise<T> {
  // Diffing needs no real database: an in-memory PGlite serves as the engine's connection and shadow.
  const pglite = await createPGlite('memory://');
  try {
    return await run(new PGliteAdapter(pglite));
  } finally {
    await pglite.close();
  }
}

if (command === 'migrate') {
  const config = loadConfig();
  const db = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  console.log(db.appliedMigrations.length ? `applied: ${db.appliedMigrations.join(', ')}` : 'nothing to apply');
  await db.close();
} else if (command === 'new-migration') {
  if (!name || !/^[a-z0-9_]+$/.test(name)) {
    console.error('usage: npm run db:new-migration -- <name in snake_case>');
    process.exit(2);
  }
  const sql = await withScratchAdapter(pendingSchemaChange);
  if (!sql) {
    console.log('schema.prisma matches the migrations: nothing to write');
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = join(migrationsDir, `${stamp}_${name}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'migration.sql'), sql);
    if (!(await loadMigrations()).lockfile.content) {
      await writeFile(join(migrationsDir, 'migration_lock.toml'), 'provider = "postgresql"\n');
    }
    console.log(`wrote ${dir}/migration.sql`);
  }
} else if (command === 'status') {
  const sql = await withScratchAdapter(pendingSchemaChange);
  console.log(sql ? `schema.prisma has changes not in a migration:\n${sql}` : 'migrations match schema.prisma');
  process.exit(sql ? 1 : 0);
} else {
  console.error('usage: tsx apps/server/src/db/cli.ts migrate | new-migration <name> | status');
  process.exit(2);
}
