import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
export const schemaPath = fileURLToPath(new URL('prisma/schema.prisma', `file://${repoRoot}`));
export const migrationsDir = fileURLToPath(new URL('prisma/migrations', `file://${repoRoot}`));
