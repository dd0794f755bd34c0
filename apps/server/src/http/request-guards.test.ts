import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../db/paths.js';
import { EXTENSION_ORIGIN } from './request-guards.js';

describe('the extension origin', () => {
  it('is the id Chrome derives from the manifest key the extension is built with', async () => {
    const build = await readFile(join(repoRoot, 'apps/extension/build.ts'), 'utf8');
    const key = /const MANIFEST_KEY =\s*'([A-Za-z0-9+/=]+)'/.exec(build)?.[1];
    expect(key).toBeDefined();
    // Chrome: the first 16 bytes of the SHA-256 of the public key, each hex digit 0-f written as a-p.
    const hex = createHash('sha256').update(Buffer.from(key!, 'base64')).digest('hex').slice(0, 32);
    const id = [...hex].map((digit) => String.fromCharCode(97 + parseInt(digit, 16))).join('');
    expect(EXTENSION_ORIGIN).toBe(`chrome-extension://${id}`);
  });
});
