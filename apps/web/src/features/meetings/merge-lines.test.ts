import { describe, expect, it } from 'vitest';
import { line } from '../../test/fixtures';
import { mergeLines, startsSpeakerRun } from './merge-lines';

describe('mergeLines', () => {
  const base = [line('a', 'Ann', 'one', 1000), line('c', 'Bob', 'three', 3000)];

  it('inserts a new line in spoken order', () => {
    const merged = mergeLines(base, [line('b', 'Ann', 'two', 2000)]);
    expect(merged.map((m) => m.key)).toEqual(['a', 'b', 'c']);
  });

  it('replaces an updated line by key, keeping its place', () => {
    const merged = mergeLines(base, [line('a', 'Ann', 'one, rewritten', 1000, 5000)]);
    expect(merged.map((m) => [m.key, m.text])).toEqual([
      ['a', 'one, rewritten'],
      ['c', 'three'],
    ]);
  });

  it('never lets an older copy undo a newer one', () => {
    const newer = mergeLines(base, [line('a', 'Ann', 'newest', 1000, 9000)]);
    const merged = mergeLines(newer, [line('a', 'Ann', 'stale', 1000, 4000)]);
    expect(merged[0]?.text).toBe('newest');
  });

  it('does not change its inputs', () => {
    const copy = structuredClone(base);
    mergeLines(base, [line('b', 'Ann', 'two', 2000)]);
    expect(base).toEqual(copy);
  });
});

describe('mergeLines on a long transcript (one live line at a time)', () => {
  const long = Array.from({ length: 1000 }, (_, i) => line(`k${String(i).padStart(4, '0')}`, 'Ann', `t${i}`, i * 10));

  it('appends a new last line, replaces a recent one, and still places an early or known-far line right', () => {
    expect(mergeLines(long, [line('new', 'Bob', 'end', 20_000)]).at(-1)?.key).toBe('new');
    const rewritten = mergeLines(long, [line('k0998', 'Ann', 'again', 9980, 99_999)]);
    expect(rewritten[998]?.text).toBe('again');
    expect(rewritten).toHaveLength(1000);
    const early = mergeLines(long, [line('k0001', 'Ann', 'early rewrite', 10, 99_999)]);
    expect(early[1]?.text).toBe('early rewrite');
    expect(early).toHaveLength(1000);
    const between = mergeLines(long, [line('mid', 'Bob', 'between', 15)]);
    expect(between.map((m) => m.key).slice(0, 3)).toEqual(['k0000', 'k0001', 'mid']);
  });
});

describe('startsSpeakerRun', () => {
  it('opens a run where the speaker changes', () => {
    const lines = [line('1', 'Ann', 'a', 1), line('2', 'Ann', 'b', 2), line('3', 'Bob', 'c', 3), line('4', 'Ann', 'd', 4)];
    expect(lines.map((_, i) => startsSpeakerRun(lines, i))).toEqual([true, false, true, true]);
  });
});
