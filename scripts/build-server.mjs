// Bundles the server into apps/server/dist with esbuild, so production starts without a TypeScript loader
// and without Node resolving and reading the ~1,200 modules start-up would otherwise load one by one: the
// server's sources, @mbox/shared and the libraries they import at start-up become a few ES module files
// (docs/development.md, "The server bundle"). Types are checked by `npm run typecheck`, not here.
//
// Two kinds of import stay with Node, loaded from node_modules at run time:
// - what the server loads on first use (`import('…')` in its sources: Stripe, firebase-admin, PGlite, …),
//   so start-up does not read them, and a library is one copy whether it is loaded early or late;
// - libraries that read files beside their own modules (through __dirname, __filename or
//   import.meta.url), which a bundle would move away from those files.
// The build fails, naming the library, when a bundled library refers to its own location or has its own
// nested copy of a package that stays with Node, so a new dependency cannot break only in production.
// Paths the server computes from its own location find the repository root by looking up
// (apps/server/src/db/paths.ts), so they hold from the sources and from the bundle alike.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sourceDirs = [join(root, 'apps/server/src'), join(root, 'packages/shared/src')];
const dist = join(root, 'apps/server/dist');

/** Libraries that read their own files at run time (checked below). */
const FILE_RELATIVE_PACKAGES = [
  'pino', // worker files for transports, by __dirname
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
/** The package name of a bare specifier: 'firebase-admin/app' → 'firebase-admin'. */
const packageName = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** The folder Node finds package `name` in, looking up from `dir` as it does. */
function packageDirFrom(dir, name) {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules', name, 'package.json'))) return join(at, 'node_modules', name);
    if (dirname(at) === at) return undefined;
  }
}

const external = [...lazySpecifiers(), ...FILE_RELATIVE_PACKAGES, ...OPTIONAL_NATIVE];
const externalPackages = new Set(external.map(packageName));

/** What the bundle would get wrong, each a line of the build's failure. */
const problems = [];
const bundleGuards = {
  name: 'bundle-guards',
  setup(build) {
    // A bundled library that refers to its own location would look for its files beside the bundle.
    const fileRelative = new Set();
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, (args) => {
      const reference = /\b__dirname\b|\b__filename\b|\bimport\.meta\.url\b/.exec(readFileSync(args.path, 'utf8'));
      const name = packageOf(args.path);
      if (reference && !fileRelative.has(name)) {
        fileRelative.add(name);
        problems.push(`${name} reads files beside its modules (${relative(root, args.path)} uses ${reference[0]}): add it to FILE_RELATIVE_PACKAGES`);
      }
      return undefined;
    });
    // An external import is resolved from the bundle's folder at run time, not from the importing
    // library's: a library with its own nested copy of that package would get another one.
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = packageName(args.path);
      if (!externalPackages.has(name) || !/[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
      const own = packageDirFrom(dirname(args.importer), name);
      if (own && own !== packageDirFrom(dist, name)) {
        problems.push(`${relative(root, args.importer)} imports its own ${relative(root, own)}, but the bundle would load another copy of ${name}`);
      }
      return undefined;
    });
  },
};

const started = Date.now();
rmSync(dist, { recursive: true, force: true });
const result = await esbuild.build({
  // The offline engine's worker threads load their own entry (apps/server/src/ai/offline/pool.ts).
  entryPoints: {
    main: join(root, 'apps/server/src/main.ts'),
    'offline-worker': join(root, 'apps/server/src/ai/offline/worker.ts'),
    'local-model-worker': join(root, 'apps/server/src/ai/local/worker.ts'),
  },
  outdir: dist,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  tsconfig: join(root, 'apps/server/tsconfig.json'),
  external,
  // CommonJS libraries in an ES module bundle still call require() for Node's built-ins.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  plugins: [bundleGuards],
  metafile: true,
  logLevel: 'warning',
});
if (problems.length) {
  rmSync(dist, { recursive: true, force: true });
  for (const problem of problems) console.error(`scripts/build-server.mjs: ${problem}`);
  process.exit(1);
}
const outputs = Object.keys(result.metafile.outputs).length;
const inputs = Object.keys(result.metafile.inputs).length;
console.log(`server bundled to ${relative(root, dist)}: ${inputs} modules in ${outputs} files in ${Date.now() - started} ms`);
