import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import * as bg from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';

const require = createRequire(import.meta.url);
let initialised: Promise<void> | undefined;

// The package targets bundlers (`import * as wasm from '…wasm'`); on Node we instantiate it ourselves.
function initialiseWasm(): Promise<void> {
  initialised ??= (async () => {
    // The .wasm file is not in the package's exports map: locate it beside the entry point.
    const wasmPath = join(dirname(require.resolve('@prisma/schema-engine-wasm')), 'schema_engine_bg.wasm');
    const module = await WebAssembly.compile(await readFile(wasmPath));
    const instance = await WebAssembly.instantiate(module, { './schema_engine_bg.js': bg });
    const exports = instance.exports as Record<string, unknown> & { __wbindgen_start: () => void };
    bg.__wbg_set_wasm(exports);
    exports.__wbindgen_start();
  })();
  return initialised;
}

/** Opens Prisma's schema engine (WASM) on a driver adapter: migrations without the native binary. */
export async function openSchemaEngine(
  adapter: SqlMigrationAwareDriverAdapterFactory,
  schema: { path: string; content: string },
  log: (message: string) => void = () => {},
): Promise<SchemaEngine> {
  await initialiseWasm();
  return bg.SchemaEngine.new(
    { datamodels: [[schema.path, schema.content]] },
    (message: string) => log(message),
    bindMigrationAwareSqlAdapterFactory(adapter),
  );
}
