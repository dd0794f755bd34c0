import { describe, expect, it } from 'vitest';
import { line } from '../../test/fixtures';
import { groupBySpeaker, mergeLines } from './merge-lines';

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

describe('groupBySpeaker', () => {
  it('groups consecutive lines of one speaker', () => {
    const runs = groupBySpeaker([
      line('1', 'Ann', 'a', 1),
      line('2', 'Ann', 'b', 2),
      line('3', 'Bob', 'c', 3),
      line('4', 'Ann', 'd', 4),
    ]);
    expect(runs.map((r) => [r.speaker, r.lines.map((l) => l.key)])).toEqual([
      ['Ann', ['1', '2']],
      ['Bob', ['3']],
      ['Ann', ['4']],
    ]);
  });
});
