// `npm run model:pull <name | https URL> [file.gguf]`: downloads a local model into LOCAL_MODEL_DIR
// (default DATA_DIR/models) with a progress bar, as Settings → AI does (docs/ai.md, "Local model").
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { LOCAL_MODEL_CATALOGUE, catalogueModel } from '../src/ai/local/catalogue.js';
import { downloadModel, ModelDownloadError } from '../src/ai/local/download.js';
import { formatGb } from '../src/ai/local/memory.js';

const [target, fileArgument] = process.argv.slice(2);
if (!target) {
  console.error('Usage: npm run model:pull <name | https URL> [file.gguf]\n\nModels:');
  for (const m of LOCAL_MODEL_CATALOGUE) console.error(`  ${m.name.padEnd(14)} ${m.label}, ${formatGb(m.bytes)}, needs ${formatGb(m.ramBytes)} RAM, ${m.licence}`);
  process.exit(2);
}
const config = loadConfig();
const dir = config.LOCAL_MODEL_DIR ?? join(config.DATA_DIR, 'models');
const entry = catalogueModel(target);
const url = entry?.url ?? target;
const file = entry?.file ?? fileArgument ?? new URL(url, 'https://invalid/').pathname.split('/').pop() ?? '';
if (!entry && !/^https?:\/\//.test(target)) {
  console.error(`'${target}' is neither a catalogue model (${LOCAL_MODEL_CATALOGUE.map((m) => m.name).join(', ')}) nor an http(s) URL.`);
  process.exit(2);
}

const cancel = new AbortController();
process.once('SIGINT', () => cancel.abort());
const bar = (received: number, total?: number) => {
  const share = total ? received / total : 0;
  const width = 30;
  const filled = Math.round(share * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(share * 100).toFixed(1)}% ${formatGb(received)}${total ? ` of ${formatGb(total)}` : ''}`;
};
try {
  console.error(`Downloading ${entry?.label ?? url} into ${dir}`);
  const result = await downloadModel({
    url,
    dir,
    file,
    sha256: entry?.sha256,
    signal: cancel.signal,
    onProgress: ({ received, total }) => process.stderr.write(`\r${bar(received, total)}`),
  });
  process.stderr.write('\n');
  console.log(`Saved ${result.path} (${formatGb(result.bytes)}), SHA-256 ${result.sha256}${entry?.sha256 ? ' (verified)' : ' (no published checksum to compare)'}.`);
  console.log('Restart the server, or choose it in Settings → AI, to use it.');
} catch (error) {
  process.stderr.write('\n');
  console.error(error instanceof ModelDownloadError ? error.message : error);
  process.exit(1);
}
