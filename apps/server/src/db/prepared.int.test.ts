import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../generated/prisma/client.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { PREPARED, preparedName } from './prepared.js';

const OWN_STATEMENTS = Prisma.sql`${Prisma.raw(PREPARED)}SELECT name, statement FROM pg_prepared_statements`;

describe.each([
  { kind: 'PostgreSQL', embedded: false },
  { kind: 'PGlite', embedded: true },
])('PREPARED statements on $kind', ({ embedded }) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ embedded });
  });
  afterAll(() => database.destroy());

  it('run as before, whatever the database', async () => {
    const [row] = await database.prisma.$queryRaw<{ n: number }[]>`${Prisma.raw(PREPARED)}SELECT ${41}::int + 1 AS n`;
    expect(row?.n).toBe(42);
  });

  it.runIf(!embedded)('are named prepared statements of their connection on PostgreSQL, plain ones are not', async () => {
    // The view lists the statements prepared on the connection that reads it, this one among them.
    const rows = await database.prisma.$queryRaw<{ name: string; statement: string }[]>(OWN_STATEMENTS);
    const name = preparedName({ sql: rows.find((row) => row.statement.startsWith(PREPARED))?.statement ?? '' });
    expect(name).toMatch(/^mbox_[0-9a-f]{24}$/);
    expect(rows.map((row) => row.name)).toContain(name);
    expect(rows.every((row) => row.statement.startsWith(PREPARED))).toBe(true);
    // Many calls, one statement per connection (the pool has at most 10).
    for (let i = 0; i < 30; i++) await database.prisma.$queryRaw(OWN_STATEMENTS);
    const again = await database.prisma.$queryRaw<{ name: string }[]>(OWN_STATEMENTS);
    expect(again.filter((row) => row.name === name)).toHaveLength(1);
  });
});
