// Compiles the server to plain JavaScript in apps/server/dist, so production starts without a TypeScript
// loader (tsx's module hooks run in a worker thread on Node 20 and cost about half a second at start-up).
// Only the modules main.ts can reach are emitted, each file transpiled on its own (types are checked by
// `npm run typecheck`, not here). Import specifiers are rewritten for Node's resolver: extensionless
// relative imports (the generated Prisma client's) get `.js`, and `@mbox/shared` — a TypeScript-source
// workspace — points at its own compiled copy in dist/@mbox/shared. The layout under dist mirrors src, so
// paths computed from import.meta.url (db/paths.ts: the repository root) resolve as they do from src.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const serverSrc = join(root, 'apps/server/src');
const sharedSrc = join(root, 'packages/shared/src');
const dist = join(root, 'apps/server/dist');
const SHARED = '@mbox/shared';

const compilerOptions = {
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.ESNext,
  isolatedModules: true,
  esModuleInterop: true,
  verbatimModuleSyntax: false,
};

function isFile(path) {
  return existsSync(path) && statSync(path).isFile();
}

/** The source file an import names, or undefined for a package import (left to Node). */
function resolveSource(specifier, fromFile) {
  let base;
  if (specifier === SHARED) return join(sharedSrc, 'index.ts');
  if (specifier.startsWith(`${SHARED}/`)) base = join(sharedSrc, specifier.slice(SHARED.length + 1));
  else if (specifier.startsWith('.')) base = resolve(dirname(fromFile), specifier);
  else return undefined;
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  const found = candidates.find(isFile);
  if (!found) throw new Error(`${relative(root, fromFile)}: cannot resolve '${specifier}'`);
  return found;
}

function outputPath(source) {
  const js = source.replace(/\.ts$/, '.js');
  if (js.startsWith(serverSrc + sep)) return join(dist, relative(serverSrc, js));
  if (js.startsWith(sharedSrc + sep)) return join(dist, SHARED, relative(sharedSrc, js));
  throw new Error(`${relative(root, source)} is outside the server and shared sources`);
}

/** Every static import, re-export and literal dynamic import of a module, with the text range of its name. */
function moduleSpecifiers(code) {
  const file = ts.createSourceFile('module.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found = [];
  const visit = (node) => {
    let literal;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) literal = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) literal = node.arguments[0];
    if (literal && ts.isStringLiteral(literal)) {
      // Inside the quotes.
      found.push({ specifier: literal.text, pos: literal.getStart(file) + 1, end: literal.getEnd() - 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found.sort((a, b) => a.pos - b.pos);
}

const started = Date.now();
rmSync(dist, { recursive: true, force: true });
const queue = [join(serverSrc, 'main.ts')];
const emitted = new Set(queue);
while (queue.length) {
  const source = queue.pop();
  let code = ts.transpileModule(readFileSync(source, 'utf8'), { compilerOptions, fileName: source }).outputText;
  const target = outputPath(source);
  // Rewritten from the last import to the first, so earlier positions stay valid.
  for (const { specifier, pos, end } of moduleSpecifiers(code).reverse()) {
    const dependency = resolveSource(specifier, source);
    if (!dependency) continue;
    if (!emitted.has(dependency)) {
      emitted.add(dependency);
      queue.push(dependency);
    }
    let rewritten = relative(dirname(target), outputPath(dependency)).split(sep).join('/');
    if (!rewritten.startsWith('.')) rewritten = `./${rewritten}`;
    code = code.slice(0, pos) + rewritten + code.slice(end);
  }
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, code);
}
console.log(`server compiled to ${relative(root, dist)}: ${emitted.size} modules in ${Date.now() - started} ms`);
