/**
 * The server benchmark suite: runs every `tests/bench/*.bench.ts` one after another, each in
 * its own process so one run's heap and caches do not colour the next, and prints their figures. Each
 * benchmark prints its figures next to the reference it is judged against, measured in the same run.
 *   npm run bench                 all of them
 *   npm run bench -- ingest live  only those whose file name contains one of the words
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => filters.length === 0 || filters.some((word) => name.includes(word)))
  .sort();

if (files.length === 0) {
  console.error(`no benchmark matches ${filters.join(', ') || '*.bench.ts'}`);
  process.exit(2);
}
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
