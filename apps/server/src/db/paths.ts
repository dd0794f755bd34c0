import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root (the Docker image's /app): the nearest folder above this module that holds the
 * Prisma schema. Found by looking up because this module runs at two depths: from its source
 * (apps/server/src/db) and bundled (apps/server/dist, scripts/build-server.mjs).
 */
function findRepoRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'prisma', 'schema.prisma'))) return dir + sep;
    if (dirname(dir) === dir) throw new Error(`No prisma/schema.prisma in any folder above ${here}`);
  }
}

export const repoRoot = findRepoRoot();
export const schemaPath = join(repoRoot, 'prisma', 'schema.prisma');
export const migrationsDir = join(repoRoot, 'prisma', 'migrations');
