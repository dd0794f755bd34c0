import { describe, expect, it } from 'vitest';
import { PREPARED, preparedName } from './prepared.js';

describe('preparedName', () => {
  it('names only PREPARED texts, one name per text', () => {
    expect(preparedName({ sql: 'SELECT 1' })).toBe('');
    const a = preparedName({ sql: `${PREPARED}SELECT 1` });
    expect(a).toBe(preparedName({ sql: `${PREPARED}SELECT 1` }));
    expect(a).not.toBe(preparedName({ sql: `${PREPARED}SELECT 2` }));
  });
});
