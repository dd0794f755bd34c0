// Bundles the server into apps/server/dist with esbuild, so production starts without a TypeScript loader
// and without Node resolving and reading the ~1,200 modules start-up would otherwise load one by one: the
// server's sources, @mbox/shared and the libraries they import at start-up become a few ES module files
// (docs/development.md, "Start-up and memory"). Types are checked by `npm run typecheck`, not here.
//
// Two kinds of import stay with Node, loaded from node_modules at run time:
// - what the server loads on first use (`import('…')` in its sources: Stripe, firebase-admin, PGlite, …),
//   so start-up does not read them, and a library is one copy whether it is loaded early or late;
// - libraries that read files beside their own modules (through __dirname, __filename or
//   import.meta.url), which a bundle would move away from those files. The build fails when a bundled
//   library does that, naming it, so a new dependency cannot break only in production.
// Paths the server computes from its own location find the repository root by looking up
// (apps/server/src/db/paths.ts), so they hold from the sources and from the bundle alike.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sourceDirs = [join(root, 'apps/server/src'), join(root, 'packages/shared/src')];
const dist = join(root, 'apps/server/dist');

/** Libraries that read their own files at run time (checked below). */
const FILE_RELATIVE_PACKAGES = [
  'pino', // worker files for transports, by __dirname
  '@fastify/swagger', // its package.json, by __dirname
  '@fastify/swagger-ui', // the Swagger UI's static files, by __dirname
];
/** Optional native bindings the libraries try to load; never installed. */
const OPTIONAL_NATIVE = ['pg-native'];

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.(test|spec)\.ts$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every package specifier the sources load with a literal `import('…')`: loaded on first use. */
function lazySpecifiers() {
  const found = new Set();
  for (const file of sourceDirs.flatMap(sourceFiles)) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      if (!specifier.startsWith('.') && !specifier.startsWith('node:')) found.add(specifier);
    }
  }
  return [...found];
}

const packageOf = (path) => {
  const parts = path.split(/node_modules[\\/]/).pop().split(/[\\/]/);
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
};

/** Bundled libraries that refer to their own location, each with where it does. */
const fileRelative = new Map();
const fileRelativeGuard = {
  name: 'file-relative-guard',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, (args) => {
      const reference = /\b__dirname\b|\b__filename\b|\bimport\.meta\.url\b/.exec(readFileSync(args.path, 'utf8'));
      if (reference) fileRelative.set(packageOf(args.path), `${relative(root, args.path)} uses ${reference[0]}`);
      return undefined;
    });
  },
};

const started = Date.now();
rmSync(dist, { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: [join(root, 'apps/server/src/main.ts')],
  outdir: dist,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  tsconfig: join(root, 'apps/server/tsconfig.json'),
  external: [...lazySpecifiers(), ...FILE_RELATIVE_PACKAGES, ...OPTIONAL_NATIVE],
  // CommonJS libraries in an ES module bundle still call require() for Node's built-ins.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  plugins: [fileRelativeGuard],
  metafile: true,
  logLevel: 'warning',
});
if (fileRelative.size) {
  rmSync(dist, { recursive: true, force: true });
  for (const [name, where] of fileRelative) {
    console.error(`${name} reads files beside its modules (${where}): add it to FILE_RELATIVE_PACKAGES in scripts/build-server.mjs`);
  }
  process.exit(1);
}
const outputs = Object.keys(result.metafile.outputs).length;
const inputs = Object.keys(result.metafile.inputs).length;
console.log(`server bundled to ${relative(root, dist)}: ${inputs} modules in ${outputs} files in ${Date.now() - started} ms`);
