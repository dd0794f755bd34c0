import { build } from 'esbuild';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createZip } from './src/packaging/zip.js';

/**
 * Bundles the extension into dist/ (load it unpacked from there; source maps beside the scripts), then
 * packs the store package dist-zip/mbox-extension-<version>.zip (no source maps), which the server
 * offers at /extension/mbox-extension.zip. Offline and fast: esbuild only.
 * The manifest is generated here so its version follows package.json.
 * Prints the gzip size of every script and fails when the content script, parsed on every Meet page
 * load, is over its budget.
 */

const root = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(root, 'dist');
const zipDir = path.join(root, 'dist-zip');
/** The content script stays within 60 kB gzip (README, "Load the extension"). */
const CONTENT_SCRIPT_BUDGET_BYTES = 60_000;

/**
 * Public half of the signing key: fixes the extension ID (see README.md) so the web app and tests can
 * address the unpacked extension. The private key is not needed for unpacked loading and is not kept.
 */
const MANIFEST_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA1PhgKBGD+iuOuA/KYEnKelcgDMiERFzjTM5u9L5kyV//BLDlK55AQHRWlbol2eum56py8reNu8OEQypqJfqy1kZbRF8B4Wkogo04GUcgreXsIGhUkC6uhqa+pGMynPcBk4Km3ajSEPx1QMTwQCVwGGqRSnK3H3NdEzCHNosmxdsq1pdZMaJD45XkpsfzSXJDsNtgP9nJGBBzwBgdgqoJZj9isW1QlV50nrFaXNk0eSGdwHvRXpz4u5u36DPvZefznNob57EI1H8+PYOz0lkEJfLGMPCQO2u+j+ckhb8mBD8zfoF8a+rOCYBsdj/MX5Db0u5HkSTG7s23w0YW5N/bXQIDAQAB';

const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string };

const manifest = {
  manifest_version: 3,
  name: 'Mbox',
  description: 'Open-source AI assistant for Google Meet: live captions to transcripts and summaries.',
  version: pkg.version,
  key: MANIFEST_KEY,
  minimum_chrome_version: '120',
  permissions: ['storage', 'alarms', 'tabs', 'scripting'],
  host_permissions: ['https://meet.google.com/*', 'http://localhost/*', 'http://127.0.0.1/*'],
  optional_host_permissions: ['*://*/*'],
  background: { service_worker: 'background.js', type: 'module' },
  action: { default_title: 'Mbox', default_popup: 'popup.html' },
  content_scripts: [
    { matches: ['https://meet.google.com/*'], js: ['content.js'], run_at: 'document_idle' },
    { matches: ['http://localhost/*', 'http://127.0.0.1/*'], js: ['bridge.js'], run_at: 'document_start' },
  ],
};

const started = Date.now();
await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

const common = {
  bundle: true,
  target: 'chrome120',
  platform: 'browser',
  sourcemap: true,
  // zod comes whole (with its locales); minifying halves what every Meet page load parses.
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
} as const;

await Promise.all([
  build({ ...common, entryPoints: { background: 'src/background/index.ts' }, format: 'esm', outdir: dist, absWorkingDir: root }),
  build({
    ...common,
    entryPoints: { content: 'src/content/index.ts', bridge: 'src/bridge/index.ts', popup: 'src/popup/index.ts' },
    // Content scripts are classic scripts; an IIFE keeps their names out of the page's shared scope.
    format: 'iife',
    outdir: dist,
    absWorkingDir: root,
  }),
  copyFile(path.join(root, 'src/popup/popup.html'), path.join(dist, 'popup.html')),
  writeFile(path.join(dist, 'manifest.json'), JSON.stringify(manifest, null, 2)),
]);

const files = (await readdir(dist)).sort();
const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`.padStart(10);
console.log('Extension scripts (gzip):');
let contentGzip = 0;
for (const file of files.filter((f) => f.endsWith('.js'))) {
  const gzip = gzipSync(await readFile(path.join(dist, file)), { level: 9 }).length;
  if (file === 'content.js') contentGzip = gzip;
  console.log(`  ${kB(gzip)}  ${file}${file === 'content.js' ? `  (budget ${kB(CONTENT_SCRIPT_BUDGET_BYTES).trim()})` : ''}`);
}

// The store package: everything Chrome loads, without source maps.
const packed = files.filter((f) => !f.endsWith('.map'));
const zip = createZip(await Promise.all(packed.map(async (name) => ({ name, data: await readFile(path.join(dist, name)) }))));
const zipPath = path.join(zipDir, `mbox-extension-${pkg.version}.zip`);
await rm(zipDir, { recursive: true, force: true });
await mkdir(zipDir, { recursive: true });
await writeFile(zipPath, zip);
console.log(`  ${kB(zip.length)}  ${path.relative(root, zipPath)} (${packed.join(', ')})`);

console.log(`extension built in ${Date.now() - started} ms → ${path.relative(process.cwd(), dist) || '.'}`);
if (contentGzip > CONTENT_SCRIPT_BUDGET_BYTES) {
  console.error(`content.js is ${kB(contentGzip).trim()} gzip, over its budget of ${kB(CONTENT_SCRIPT_BUDGET_BYTES).trim()}`);
  process.exit(1);
}
