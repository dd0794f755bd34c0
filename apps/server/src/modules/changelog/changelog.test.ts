import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHANGELOG } from './service.js';

const serverVersion = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

const compareVersions = (a: string, b: string) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  return x.reduce((order, part, i) => order || part - (y[i] ?? 0), 0);
};

describe('changelog.json', () => {
  it('starts with the version being released', () => {
    expect(CHANGELOG[0]?.version).toBe(serverVersion);
  });

  it('lists each version once, newest first, with dates never going forward', () => {
    for (let i = 1; i < CHANGELOG.length; i += 1) {
      const [newer, older] = [CHANGELOG[i - 1]!, CHANGELOG[i]!];
      expect(compareVersions(newer.version, older.version), `${newer.version} after ${older.version}`).toBeGreaterThan(0);
      expect(newer.date >= older.date, `${newer.version} dated before ${older.version}`).toBe(true);
    }
  });

  it('begins with 0.1.0 on 2026-11-22', () => {
    expect(CHANGELOG.at(-1)).toMatchObject({ version: '0.1.0', date: '2026-11-22' });
  });
});
