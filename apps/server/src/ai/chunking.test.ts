import { describe, expect, it } from 'vitest';
import { groupWithinBudget, splitLinesIntoChunks } from './chunking.js';
import { countTokens } from './tokens.js';

describe('splitting a transcript into chunks', () => {
  // The first split loads wink-nlp's English model (sentences), seconds on a loaded machine.
  it('cuts between speaker turns and keeps every chunk within the budget', { timeout: 30_000 }, () => {
    const lines = Array.from({ length: 60 }, (_, i) => `Speaker ${i % 3}: This is turn number ${i} about the budget and the roadmap.`);
    const chunks = splitLinesIntoChunks(lines, 120, countTokens);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(countTokens(c)).toBeLessThanOrEqual(120);
    expect(chunks.join('\n').split('\n')).toEqual(lines);
  });

  it('splits a turn longer than a chunk between sentences, keeping its speaker on every piece', () => {
    const long = `Ann: ${Array.from({ length: 40 }, (_, i) => `Sentence ${i} talks about the launch plan.`).join(' ')}`;
    const chunks = splitLinesIntoChunks(['Bob: Hello.', long], 60, countTokens);
    for (const c of chunks) {
      expect(countTokens(c)).toBeLessThanOrEqual(60);
      for (const line of c.split('\n')) expect(line).toMatch(/^(Ann|Bob): /);
    }
    expect(chunks.join(' ')).toContain('Sentence 39 talks about the launch plan.');
  });

  it('cuts a sentence longer than a chunk between words', () => {
    const chunks = splitLinesIntoChunks([`Ann: ${'word '.repeat(300).trim()}`], 50, countTokens);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(countTokens(c)).toBeLessThanOrEqual(50);
  });

  it('groups notes within a budget, at least one per group', () => {
    const groups = groupWithinBudget(['a '.repeat(50), 'b '.repeat(50), 'c '.repeat(300)], 130, countTokens);
    expect(groups.map((g) => g.length)).toEqual([2, 1]);
  });
});
