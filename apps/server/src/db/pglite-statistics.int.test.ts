import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';

describe('embedded PGlite', () => {
  it('gathers planner statistics when it opens, since it has no autovacuum to do it', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      const analysed = async () =>
        (
          await db.pglite!.query<{ relname: string }>(
            `SELECT relname FROM pg_stat_user_tables WHERE last_analyze IS NOT NULL AND relname IN ('Meeting', 'Message')`,
          )
        ).rows.map((r) => r.relname);
      await expect.poll(analysed, { timeout: 10_000 }).toEqual(expect.arrayContaining(['Meeting', 'Message']));
    } finally {
      await db.close();
    }
  });
});
