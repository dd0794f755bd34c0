import type { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';

/**
 * An embedded PGlite with the contrib extensions the schema uses (pg_trgm for name search), so the
 * migrations that create them apply on PGlite as they do on PostgreSQL.
 */
export async function createPGlite(dataDir: string): Promise<PGlite> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  return PGlite.create(dataDir, { extensions: { pg_trgm } });
}

/** Prisma's adapter for `pglite`, whose shadow database (diffing migrations) has the extensions too. */
export class PGliteAdapter extends PrismaPGlite {
  override async connectToShadowDb() {
    return new PrismaPGlite(await createPGlite('memory://shadow')).connect();
  }
}
