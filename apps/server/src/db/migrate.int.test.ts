import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { applyMigrations, pendingSchemaChange } from './migrate.js';
import { createPGlite, PGliteAdapter } from './pglite.js';

describe('migrations', () => {
  let db: TestDatabase | undefined;
  afterAll(() => db?.destroy());

  it('produce exactly what schema.prisma describes (no drift)', async () => {
    const pglite = await createPGlite('memory://');
    try {
      expect(await pendingSchemaChange(new PGliteAdapter(pglite))).toBe('');
    } finally {
      await pglite.close();
    }
  });

  it('apply once on a new database and never twice', async () => {
    db = await createTestDatabase({ fresh: true });
    expect(db.appliedMigrations.length).toBeGreaterThan(0);
    expect(await applyMigrations(db.adapter)).toEqual([]);
    if (db.url) {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL');
      await client.end();
      expect(rows.map((r) => r.migration_name).sort()).toEqual([...db.appliedMigrations].sort());
    }
    // The generated client works against the migrated schema.
    const user = await db.prisma.user.create({ data: { email: 'a@example.com', referralCode: 'abc' } });
    expect(user.defaultMinSummaryLength).toBe(200);
    expect(user.whiteEmailList).toEqual([]);
  });
});
