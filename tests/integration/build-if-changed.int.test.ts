import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../apps/server/src/db/paths.js';

// scripts/build.mjs, as `npm start` runs it (--if-changed), on a checkout of its own: the same workspace
// layout, whose three builds each write their output and count their runs. So what it skips and what it
// rebuilds is seen without building the real apps (a minute of CPU each time).

const run = promisify(execFile);

const WORKSPACES = {
  web: { dir: 'apps/web', output: 'dist/index.html' },
  extension: { dir: 'apps/extension', output: 'dist/manifest.json' },
  server: { dir: 'apps/server', output: 'dist/main.js' },
} as const;

describe('npm start skips the build while it is current', () => {
  let root: string;

  const file = (relative: string) => path.join(root, relative);
  const build = async () => (await run(process.execPath, ['scripts/build.mjs', '--if-changed'], { cwd: root })).stdout;
  const runs = async () => (await readFile(file('builds.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'mbox-build-'));
    await mkdir(file('scripts'));
    await cp(path.join(repoRoot, 'scripts/build.mjs'), file('scripts/build.mjs'));
    await writeFile(file('package.json'), JSON.stringify({ name: 'fake', private: true, workspaces: Object.values(WORKSPACES).map((w) => w.dir) }));
    await writeFile(file('package-lock.json'), '{"lockfileVersion":3}\n');
    for (const [name, { dir, output }] of Object.entries(WORKSPACES)) {
      const script = `node -e "const fs=require('fs');fs.mkdirSync('${path.posix.dirname(output)}',{recursive:true});fs.writeFileSync('${output}','x');fs.appendFileSync('../../builds.log','${name}\\n')"`;
      await mkdir(file(`${dir}/src`), { recursive: true });
      await writeFile(file(`${dir}/package.json`), JSON.stringify({ name: `@mbox/${name}`, private: true, scripts: { build: script } }));
      await writeFile(file(`${dir}/src/index.ts`), `export const name = '${name}';\n`);
    }
    await mkdir(file('packages/shared/src'), { recursive: true });
    await writeFile(file('packages/shared/src/rule.ts'), 'export const limit = 1;\n');
  });

  afterAll(() => rm(root, { recursive: true, force: true }));

  it('builds the first time, then skips until a source changes', { timeout: 120_000 }, async () => {
    expect(await build()).toContain('building');
    expect(await runs()).toBe(3);

    expect(await build()).toMatch(/^build is current \(\d+ source files unchanged/);
    expect(await runs()).toBe(3);

    // A newer modification time with the same content (a checkout, a copy) is no change.
    const later = new Date(Date.now() + 60_000);
    await utimes(file('packages/shared/src/rule.ts'), later, later);
    expect(await build()).toContain('build is current');

    // A test file is read by no build.
    await writeFile(file('apps/server/src/index.test.ts'), 'it.todo("x");\n');
    expect(await build()).toContain('build is current');
    expect(await runs()).toBe(3);
  });

  it('rebuilds after any edited source, lockfile or baked-in VITE_ variable, and when an output is gone', { timeout: 120_000 }, async () => {
    let before = await runs();
    const rebuilt = async (change: () => Promise<unknown>, env: NodeJS.ProcessEnv = {}) => {
      await change();
      const { stdout } = await run(process.execPath, ['scripts/build.mjs', '--if-changed'], { cwd: root, env: { ...process.env, ...env } });
      const after = await runs();
      const built = after > before;
      before = after;
      return { built, stdout };
    };

    expect((await rebuilt(() => writeFile(file('packages/shared/src/rule.ts'), 'export const limit = 2;\n'))).built).toBe(true);
    expect((await rebuilt(() => writeFile(file('apps/web/src/new-page.tsx'), 'export {};\n'))).built).toBe(true);
    expect((await rebuilt(() => rm(file('apps/web/src/new-page.tsx')))).built).toBe(true);
    expect((await rebuilt(() => writeFile(file('package-lock.json'), '{"lockfileVersion":3,"packages":{}}\n'))).built).toBe(true);
    expect((await rebuilt(async () => undefined, { VITE_PRIVACY_POLICY_URL: 'https://example.com/privacy' })).built).toBe(true);
    const gone = await rebuilt(() => rm(file('apps/server/dist/main.js')));
    expect(gone.built).toBe(true);
    expect(gone.stdout).toContain('apps/server/dist/main.js missing');
    // And after each rebuild, current again.
    expect((await rebuilt(async () => undefined)).built).toBe(false);
  });

  it('npm run build always builds', { timeout: 60_000 }, async () => {
    const before = await runs();
    await run(process.execPath, ['scripts/build.mjs'], { cwd: root });
    expect(await runs()).toBe(before + 3);
  });
});
