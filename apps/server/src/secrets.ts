import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Config } from './config.js';

export interface Secrets {
  /** HMAC key of local-mode session JWTs. */
  authSecret: Uint8Array;
  /** 32-byte key wrapping per-user data keys (message encryption). */
  masterKey: Buffer;
}

const storedSchema = z.object({ authSecret: z.string().min(32), masterKey: z.string().min(40) });

function decodeMasterKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) throw new Error('ENCRYPTION_MASTER_KEY must be 32 bytes, base64-encoded');
  return key;
}

/**
 * Secrets come from the environment; missing ones are generated once and kept in DATA_DIR/secrets.json
 * (mode 0600) so that sessions and encrypted messages survive restarts of a single-machine install.
 */
export async function loadSecrets(config: Config): Promise<Secrets> {
  const file = join(config.DATA_DIR, 'secrets.json');
  let stored: z.infer<typeof storedSchema> | undefined;
  if (!config.AUTH_SECRET || !config.ENCRYPTION_MASTER_KEY) {
    const existing = await readFile(file, 'utf8').catch(() => undefined);
    stored = existing ? storedSchema.parse(JSON.parse(existing)) : undefined;
    if (!stored) {
      stored = { authSecret: randomBytes(48).toString('base64url'), masterKey: randomBytes(32).toString('base64') };
      await mkdir(config.DATA_DIR, { recursive: true });
      await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    }
  }
  return {
    authSecret: new TextEncoder().encode(config.AUTH_SECRET ?? stored?.authSecret),
    masterKey: decodeMasterKey(config.ENCRYPTION_MASTER_KEY ?? stored!.masterKey),
  };
}
