import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JS_TRIM_CODE_POINTS } from './json-sql.js';

describe('JS_TRIM_CODE_POINTS', () => {
  it('are exactly the code points String.prototype.trim removes', () => {
    const trimmed: number[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      if (`x${String.fromCodePoint(code)}`.trim() === 'x') trimmed.push(code);
    }
    expect(JS_TRIM_CODE_POINTS).toEqual(trimmed);
  });

  it('are the characters the participants migration trims by', () => {
    const migration = readFileSync(new URL('../../../../prisma/migrations/20261124050000_participants_stored_unique/migration.sql', import.meta.url), 'utf8');
    const literal = `U&'${JS_TRIM_CODE_POINTS.map((code) => `\\${code.toString(16).padStart(4, '0')}`).join('')}'`;
    expect(migration).toContain(literal);
  });
});
