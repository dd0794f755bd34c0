#!/usr/bin/env node
// Initial JavaScript budget of the web app (docs/performance.md): what a fresh load of /login and of /
// downloads before it is interactive — the entry chunk, the chunk of the route's page, and everything
// they import statically — must stay within BUDGET_BYTES gzip. Reads Vite's manifest, so it needs
// `build.manifest: true`. Usage: node scripts/check-bundle-budget.mjs [outDir]  (default apps/web/dist)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 200_000;

/** The first screens of the app and the page modules the router loads for them (apps/web/src/routes/index.tsx). */
const INITIAL_ROUTES = {
  '/login': ['src/routes/login.tsx'],
  '/': ['src/routes/meetings.tsx'],
};

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.resolve(process.cwd(), process.argv[2] ?? path.join(repoRoot, 'apps/web/dist'));

/** @type {Record<string, { file: string; isEntry?: boolean; imports?: string[]; css?: string[] }>} */
let manifest;
try {
  manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8'));
} catch (error) {
  console.error(`bundle budget: no Vite manifest in ${outDir} (build with build.manifest: true): ${error.message}`);
  process.exit(1);
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) {
  console.error('bundle budget: the manifest has no entry chunk');
  process.exit(1);
}

/** Manifest keys of `roots` and of everything they import statically (dynamic imports load later). */
function staticClosure(roots) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`bundle budget: ${key} is not in the manifest (was the route renamed?)`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  roots.forEach(visit);
  return seen;
}

const gzipCache = new Map();
function gzipBytes(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(path.join(outDir, file)), { level: 9 }).length);
  return gzipCache.get(file);
}

const kB = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;
let failed = false;

for (const [route, pages] of Object.entries(INITIAL_ROUTES)) {
  let keys;
  try {
    keys = staticClosure([entryKey, ...pages]);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  const files = [...keys].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'));
  const css = new Set([...keys].flatMap((key) => manifest[key].css ?? []));
  const rows = files.map((file) => ({ file, gzip: gzipBytes(file) })).sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((sum, row) => sum + row.gzip, 0);
  const cssTotal = [...css].reduce((sum, file) => sum + gzipBytes(file), 0);
  const over = total > BUDGET_BYTES;
  failed ||= over;

  console.log(`\nInitial JavaScript for ${route} (gzip):`);
  for (const row of rows) console.log(`  ${kB(row.gzip).padStart(10)}  ${row.file}`);
  console.log(`  ${kB(total).padStart(10)}  total JS, budget ${kB(BUDGET_BYTES)} ${over ? 'EXCEEDED' : 'ok'}`);
  console.log(`  ${kB(cssTotal).padStart(10)}  CSS (not counted)`);
}

if (failed) {
  console.error(`\nbundle budget exceeded: split the code further (see scripts/check-bundle-budget.mjs)`);
  process.exit(1);
}
