// `prisma generate` only needs the query compiler shipped in @prisma/client, but the CLI still looks
// for a native schema engine and tries to download one when it is missing (impossible offline).
// Pointing it at any existing file stops that; migrations run through the WASM engine instead.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(import.meta.url);
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
const result = spawnSync('npx', ['prisma', 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
