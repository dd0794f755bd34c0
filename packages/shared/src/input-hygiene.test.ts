import { describe, expect, it } from 'vitest';
import { EARLIEST_TIMESTAMP, normalizeStrings, normalizeText, timestampSchema } from './input-hygiene.js';

describe('normalizeText', () => {
  it('drops NUL and replaces lone surrogates, keeping pairs and everything else', () => {
    expect(normalizeText('a\u0000b\u0000')).toBe('ab');
    expect(normalizeText('x\ud800y\udc00z')).toBe('x\ufffdy\ufffdz');
    expect(normalizeText('emoji 😀 tab\t')).toBe('emoji 😀 tab\t');
  });

  it('reaches strings in arrays, object keys and values, and leaves other values alone', () => {
    expect(normalizeStrings({ 'k\u0000': ['v\ud800', 1, null, true], n: { deep: 'd\u0000' } })).toEqual({
      k: ['v\ufffd', 1, null, true],
      n: { deep: 'd' },
    });
    const date = new Date(0);
    expect(normalizeStrings(date)).toBe(date);
  });
});

describe('timestampSchema', () => {
  it('takes 2000-01-01 up to a day ahead of now, and nothing else', () => {
    expect(timestampSchema.safeParse(EARLIEST_TIMESTAMP).success).toBe(true);
    expect(timestampSchema.safeParse(Date.now() + 23 * 3_600_000).success).toBe(true);
    expect(timestampSchema.safeParse(EARLIEST_TIMESTAMP - 1).success).toBe(false);
    expect(timestampSchema.safeParse(Date.now() + 25 * 3_600_000).success).toBe(false);
    expect(timestampSchema.safeParse(Date.UTC(10000, 0, 1)).success).toBe(false);
    expect(timestampSchema.safeParse(1.5e12 + 0.5).success).toBe(false);
  });
});
