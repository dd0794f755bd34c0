#!/usr/bin/env node
// Builds the web app, the extension (and its store zip) and the server bundle, in that order, then records
// a fingerprint of everything those builds read. `npm run build` always builds; `npm start` passes
// --if-changed and skips the build when every output exists and the fingerprint is the one recorded.
//
// The fingerprint is a SHA-256 over the path and content (not the modification time: a checkout or a
// copy changes times without changing code, and a restored older file can carry a newer time) of every
// input file, plus the VITE_* variables the web build bakes in. Inputs: the three apps and
// packages/shared (tests left out: no build reads them), the build scripts, the root manifests, the
// lockfile (any dependency change) and patches/. It is computed before building, so a file edited
// while a build runs makes the next start build again.
//
// Usage: node scripts/build.mjs [--if-changed] [--root <dir>]   (--root: another checkout, for tests)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const rootArg = args.indexOf('--root');
const root = rootArg >= 0 ? path.resolve(args[rootArg + 1]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ifChanged = args.includes('--if-changed');

const WORKSPACES = ['@mbox/web', '@mbox/extension', '@mbox/server'];
/** Folders and files the builds read. */
const INPUT_DIRS = ['apps/web', 'apps/extension', 'apps/server', 'packages/shared', 'patches'];
const INPUT_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'scripts/build.mjs',
  'scripts/build-server.mjs',
  'scripts/check-bundle-budget.mjs',
];
/** Build outputs and what no build reads, anywhere under the input folders. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'dist-zip', 'coverage', 'test-results']);
const SKIPPED_FILES = /\.(test|spec)\.tsx?$|\.tsbuildinfo$/;
/** Each build's output: one missing means that build has to run. */
const OUTPUTS = ['apps/web/dist/index.html', 'apps/extension/dist/manifest.json', 'apps/server/dist/main.js'];
const STAMP = path.join(root, 'node_modules/.cache/mbox/build-fingerprint.json');

function inputFiles() {
  const files = INPUT_FILES.filter((file) => existsSync(path.join(root, file)));
  for (const dir of INPUT_DIRS) {
    if (!existsSync(path.join(root, dir))) continue;
    const walk = (relative) => {
      for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
        const child = path.posix.join(relative, entry.name);
        if (entry.isDirectory()) {
          if (!SKIPPED_DIRS.has(entry.name)) walk(child);
        } else if (entry.isFile() && !SKIPPED_FILES.test(entry.name)) {
          files.push(child);
        }
      }
    };
    walk(dir);
  }
  return files.sort();
}

function fingerprint() {
  const hash = createHash('sha256');
  const files = inputFiles();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(createHash('sha256').update(readFileSync(path.join(root, file))).digest());
  }
  const viteEnv = Object.keys(process.env)
    .filter((key) => key.startsWith('VITE_'))
    .sort()
    .map((key) => `${key}=${process.env[key]}`);
  hash.update(`\0env\0${viteEnv.join('\0')}`);
  return { value: hash.digest('hex'), files: files.length };
}

function recorded() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8')).fingerprint;
  } catch {
    return null;
  }
}

const started = Date.now();
const current = fingerprint();
if (ifChanged) {
  const missing = OUTPUTS.filter((output) => !existsSync(path.join(root, output)));
  if (missing.length === 0 && recorded() === current.value) {
    console.log(`build is current (${current.files} source files unchanged, checked in ${Date.now() - started} ms): skipping it; npm run build forces one`);
    process.exit(0);
  }
  console.log(missing.length ? `building: ${missing.join(', ')} missing` : 'building: sources changed since the last build');
}

for (const workspace of WORKSPACES) {
  const result = spawnSync('npm', ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
mkdirSync(path.dirname(STAMP), { recursive: true });
writeFileSync(STAMP, `${JSON.stringify({ fingerprint: current.value, files: current.files, builtAt: new Date().toISOString() }, null, 2)}\n`);
