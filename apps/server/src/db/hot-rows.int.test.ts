import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../generated/prisma/client.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { hotRows } from './hot-rows.js';
import { PREPARED, preparedName } from './prepared.js';

const OWN_STATEMENTS = Prisma.sql`SELECT name, statement FROM pg_prepared_statements`;

/** Every column type the hot statements return, and the parameters they pass. */
const TYPES = Prisma.sql`
  SELECT ${41}::int + 1 AS n, ${'a'}::text AS s, ${true}::boolean AS b, ${2.5}::float8 AS f, ${null}::text AS nothing,
         ${['x', 'y']}::text[] AS list, count(*) AS big,
         ${new Date(Date.UTC(2025, 0, 6, 9, 0, 0, 123))}::timestamp(3) AS at,
         TIMESTAMP '2025-01-06 09:00:00.5' AS literal
  FROM (VALUES (1), (2)) v`;
const TYPED = {
  n: 42,
  s: 'a',
  b: true,
  f: 2.5,
  nothing: null,
  list: ['x', 'y'],
  big: 2n,
  at: new Date(Date.UTC(2025, 0, 6, 9, 0, 0, 123)),
  literal: new Date(Date.UTC(2025, 0, 6, 9, 0, 0, 500)),
};

describe('hotRows', () => {
  let postgres: TestDatabase;
  let pglite: TestDatabase;
  beforeAll(async () => {
    [postgres, pglite] = await Promise.all([createTestDatabase(), createTestDatabase({ embedded: true })]);
  });
  afterAll(() => Promise.all([postgres.destroy(), pglite.destroy()]));

  it('answers rows as $queryRaw does, on PostgreSQL and on PGlite', async () => {
    for (const db of [postgres, pglite]) {
      expect(await hotRows(db.hot, TYPES)).toEqual([TYPED]);
      expect(await db.prisma.$queryRaw(TYPES)).toEqual([TYPED]);
    }
  });

  it('refuses a parameter or a column type it would pass or read differently', async () => {
    await expect(hotRows(postgres.hot, Prisma.sql`SELECT ${Buffer.from('x')}::bytea`)).rejects.toThrow(/parameter is not supported/);
    await expect(hotRows(postgres.hot, Prisma.sql`SELECT 1.5::numeric AS d`)).rejects.toThrow(/column d has a type/);
  });

  it('sends named prepared statements on PostgreSQL, one per text and connection', async () => {
    const rows = await hotRows<{ name: string; statement: string }>(postgres.hot, OWN_STATEMENTS);
    // The view lists the statements prepared on the connection that reads it, this one among them.
    const own = rows.find((row) => row.statement.includes('pg_prepared_statements'));
    expect(own?.statement.startsWith(PREPARED)).toBe(true);
    expect(own?.name).toMatch(/^mbox_[0-9a-f]{24}$/);
    expect(own?.name).toBe(preparedName({ sql: own!.statement }));
    // Many calls, one statement per connection (the pool has at most 10).
    for (let i = 0; i < 30; i++) await hotRows(postgres.hot, OWN_STATEMENTS);
    const again = await hotRows<{ name: string }>(postgres.hot, OWN_STATEMENTS);
    expect(again.filter((row) => row.name === own?.name)).toHaveLength(1);
    // Prisma's own statements stay unnamed.
    await postgres.prisma.$queryRaw`SELECT 1`;
    expect((await hotRows<{ statement: string }>(postgres.hot, OWN_STATEMENTS)).every((row) => row.statement.startsWith(PREPARED))).toBe(true);
  });

  it('shares the pool with Prisma: closing the database ends both', async () => {
    const db = await createTestDatabase();
    await hotRows(db.hot, Prisma.sql`SELECT 1 AS one`);
    await db.destroy();
    await expect(hotRows(db.hot, Prisma.sql`SELECT 1 AS one`)).rejects.toThrow();
  });
});
