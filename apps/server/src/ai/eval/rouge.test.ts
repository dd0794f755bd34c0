import { describe, expect, it } from 'vitest';
import { lcsLength, rougeAll, rougeL, rougeN, rougeTokens } from './rouge.js';

describe('ROUGE', () => {
  it('tokenises and stems like rouge-score', () => {
    expect(rougeTokens('The Designers were designing, quickly!')).toEqual(['the', 'design', 'were', 'design', 'quickli']);
  });

  it('computes ROUGE-1 and ROUGE-2 with clipped counts', () => {
    const ref = rougeTokens('the cat sat on the mat', false);
    const cand = rougeTokens('the cat the cat on a mat', false);
    const r1 = rougeN(cand, ref, 1);
    // Overlap: the×2, cat×1, on, mat = 5; candidate 7 tokens, reference 6.
    expect(r1.precision).toBeCloseTo(5 / 7);
    expect(r1.recall).toBeCloseTo(5 / 6);
    const r2 = rougeN(cand, ref, 2);
    // Bigrams shared: "the cat" (clipped to 1), "on a"? no; = 1 of 6 candidate, 5 reference.
    expect(r2.precision).toBeCloseTo(1 / 6);
    expect(r2.recall).toBeCloseTo(1 / 5);
  });

  it('computes ROUGE-L from the longest common subsequence', () => {
    expect(lcsLength(['a', 'b', 'c', 'd'], ['a', 'c', 'd', 'b'])).toBe(3);
    const l = rougeL(['police', 'killed', 'the', 'gunman'], ['police', 'kill', 'the', 'gunman']);
    expect(l.f1).toBeCloseTo(0.75);
  });

  it('gives 1 for identical texts and 0 for disjoint or empty ones', () => {
    const same = rougeAll('Budget approved for the new remote.', 'Budget approved for the new remote.');
    expect(same.rouge1.f1).toBe(1);
    expect(same.rouge2.f1).toBe(1);
    expect(same.rougeL.f1).toBe(1);
    expect(rougeAll('alpha beta', 'gamma delta').rouge1.f1).toBe(0);
    expect(rougeAll('', 'gamma delta').rougeL.f1).toBe(0);
  });
});
