import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../apps/server/src/db/paths.js';

// The Node versions the repository says it runs on (package.json `engines`) against what every locked
// dependency says it needs, and against the Node of the Docker image. Only the running Node (these
// machines have Node 20) can install for real; the others are checked on the lockfile's own `engines`
// fields, which are what npm compares when it prints EBADENGINE.

const run = promisify(execFile);

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

async function json<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(path.join(repoRoot, file), 'utf8')) as T;
}

/** The lowest version of each `||` range of an engines field: ^20.19.0 || ^22.13.0 → 20.19.0, 22.13.0. */
function lowestOfEachRange(range: string): string[] {
  return new semver.Range(range).set.map((comparators) => semver.minVersion(new semver.Range(comparators.map(String).join(' ')))!.version);
}

describe('Node versions', () => {
  let engines: string;
  let locked: [string, LockedPackage][];

  beforeAll(async () => {
    engines = (await json<{ engines: { node: string } }>('package.json')).engines.node;
    locked = Object.entries((await json<{ packages: Record<string, LockedPackage> }>('package-lock.json')).packages);
  });

  it('engines names Node 22 LTS and still admits Node 20.19', () => {
    expect(semver.satisfies('22.13.0', engines)).toBe(true);
    expect(semver.satisfies('20.19.0', engines)).toBe(true);
    expect(semver.satisfies(process.version, engines)).toBe(true);
  });

  it('every locked dependency supports the lowest version of each range in engines', () => {
    const versions = lowestOfEachRange(engines);
    expect(versions).toContain('22.13.0');
    const unsupported = locked.flatMap(([where, pkg]) => {
      const needs = !Array.isArray(pkg.engines) ? pkg.engines?.node : undefined;
      if (!where || !needs) return [];
      return versions.filter((version) => !semver.satisfies(version, needs)).map((version) => `${where}@${pkg.version}: node ${needs} (not ${version})`);
    });
    expect(unsupported).toEqual([]);
  });

  it('the Docker image runs a Node that engines admits', async () => {
    const dockerfile = await readFile(path.join(repoRoot, 'Dockerfile'), 'utf8');
    const images = [...dockerfile.matchAll(/^FROM\s+node:(\d+)[-\w.]*/gm)].map((match) => match[1]!);
    expect(images.length).toBeGreaterThan(0);
    for (const major of images) {
      // An LTS line that is still maintained (Node 20 reached its end of life in April 2026); its image
      // is that line's newest release, which engines must admit.
      expect(Number(major)).toBeGreaterThanOrEqual(22);
      expect(semver.intersects(`^${major}.13.0`, engines)).toBe(true);
    }
  });

  describe('npm ci', () => {
    let dir: string;

    beforeAll(async () => {
      // Only what npm reads to plan an install: the manifests, the lockfile and the local stub package.
      dir = await mkdtemp(path.join(os.tmpdir(), 'mbox-engines-'));
      const root = await json<{ workspaces: string[] }>('package.json');
      for (const file of ['package.json', 'package-lock.json', ...root.workspaces.map((workspace) => `${workspace}/package.json`)]) {
        await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await cp(path.join(repoRoot, file), path.join(dir, file));
      }
      await cp(path.join(repoRoot, 'scripts/stubs'), path.join(dir, 'scripts/stubs'), { recursive: true });
    });

    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('prints no engine warning on this Node', { timeout: 180_000 }, async () => {
      const { stdout, stderr } = await run('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: dir,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, npm_config_loglevel: 'warn' },
      });
      expect(`${stdout}\n${stderr}`).not.toMatch(/EBADENGINE|Unsupported engine/);
    });
  });
});
