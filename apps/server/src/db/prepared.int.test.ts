import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../generated/prisma/client.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { PREPARED, preparedName } from './prepared.js';

const OWN_STATEMENTS = Prisma.sql`${Prisma.raw(PREPARED)}SELECT name, statement FROM pg_prepared_statements`;
const ANSWER = Prisma.sql`${Prisma.raw(PREPARED)}SELECT ${41}::int + 1 AS n`;

describe('PREPARED statements', () => {
  let postgres: TestDatabase;
  let pglite: TestDatabase;
  beforeAll(async () => {
    [postgres, pglite] = await Promise.all([createTestDatabase(), createTestDatabase({ embedded: true })]);
  });
  afterAll(() => Promise.all([postgres.destroy(), pglite.destroy()]));

  it('run as any statement on PGlite (the mark is a comment there)', async () => {
    expect(await pglite.prisma.$queryRaw(ANSWER)).toEqual([{ n: 42 }]);
  });

  it('are named prepared statements of their connection on PostgreSQL, plain ones are not', async () => {
    expect(await postgres.prisma.$queryRaw(ANSWER)).toEqual([{ n: 42 }]);
    // The view lists the statements prepared on the connection that reads it, this one among them.
    const rows = await postgres.prisma.$queryRaw<{ name: string; statement: string }[]>(OWN_STATEMENTS);
    const name = preparedName({ sql: rows.find((row) => row.statement.includes('pg_prepared_statements'))?.statement ?? '' });
    expect(name).toMatch(/^mbox_[0-9a-f]{24}$/);
    expect(rows.map((row) => row.name)).toContain(name);
    expect(rows.every((row) => row.statement.startsWith(PREPARED))).toBe(true);
    // Many calls, one statement per connection (the pool has at most 10).
    for (let i = 0; i < 30; i++) await postgres.prisma.$queryRaw(OWN_STATEMENTS);
    const again = await postgres.prisma.$queryRaw<{ name: string }[]>(OWN_STATEMENTS);
    expect(again.filter((row) => row.name === name)).toHaveLength(1);
  });
});
