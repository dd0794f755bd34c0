/**
 * `npm run lint:openapi`: writes the server's OpenAPI document (the one /v1/openapi.json serves) to a
 * temporary file and lints it with Redocly's recommended rules (redocly.yaml), offline.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../apps/server/src/openapi.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mbox-openapi-'));
const file = join(dir, 'openapi.json');
try {
  writeFileSync(file, JSON.stringify(openApiDocument(), null, 2));
  const result = spawnSync(join(root, 'node_modules/.bin/redocly'), ['lint', file, '--config', join(root, 'redocly.yaml')], {
    stdio: 'inherit',
    // No telemetry and no update check: both would reach the network.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (result.error) throw result.error;
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
