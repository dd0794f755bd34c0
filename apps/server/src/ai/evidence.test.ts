import { describe, expect, it } from 'vitest';
import { evidenceOf, factsOf, unsupportedFacts } from './evidence.js';

const facts = (text: string) => factsOf(text).map((f) => [f.kind, f.text, ...(f.kind === 'number' ? [f.values] : [])]);
const noParticipants = evidenceOf([]);

describe('the names, numbers and dates a point states', () => {
  it('reads numbers in digits and in words, with scales, amounts and percentages', () => {
    expect(facts('The remote costs twenty five euros, 12.5 percent more, and 4 million units ship.')).toEqual([
      ['number', 'twenty five euros', [25]],
      ['number', '12.5 percent', [12.5]],
      ['number', '4 million', [4_000_000]],
    ]);
    expect(facts('$1,200 for a hundred and twenty buttons')).toEqual([
      ['number', '$1,200', [1200]],
      ['number', 'hundred and twenty', [120]],
    ]);
  });

  it('leaves out the word "one", which is as often a pronoun as a figure', () => {
    expect(facts('The one we liked, and 1 more.')).toEqual([['number', '1', [1]]]);
  });

  it('reads dates by their words and numbers, and names as runs of proper nouns', () => {
    expect(facts('Priya Patel sends it by next Friday, March 5th.')).toEqual([
      ['number', 'March 5th', [5]],
      ['date', 'next Friday'],
      ['date', 'March 5th'],
      ['name', 'Priya Patel'],
    ]);
  });
});

describe('checking a point against its lines', () => {
  const lines = evidenceOf(['Marketing: The remote should cost twenty five Euros.', 'Dave: I can send it by Friday, the budget is four million.']);

  it('finds figures written differently in the lines', () => {
    expect(unsupportedFacts('Marketing: 25 euros for the remote; Dave sends it Friday; budget 4 million', lines, noParticipants)).toEqual([]);
    expect(unsupportedFacts('The 2nd option wins', evidenceOf(['Ana: I prefer the second option.']), noParticipants)).toEqual([]);
  });

  it('names what the lines do not hold', () => {
    expect(unsupportedFacts('Priya sends it by Monday for 30 euros, budget 4 billion', lines, noParticipants)).toEqual([
      '30 euros',
      '4 billion',
      'Monday',
      'Priya',
    ]);
  });

  it("takes participants' names for names, never for figures", () => {
    const participants = evidenceOf(['Priya Patel', 'Monday Team']);
    expect(unsupportedFacts('Priya Patel sends it by Monday', lines, participants)).toEqual(['Monday']);
  });
});
