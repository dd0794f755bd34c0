import { describe, expect, it } from 'vitest';
import { latestWithin, queryTerms, rankLines, selectWindows, type AskLine } from './retrieve.js';

const start = Date.UTC(2026, 0, 5, 15, 0);
function meeting(...turns: [string, string][]): AskLine[] {
  return turns.map(([speaker, text], i) => ({ id: `m${i}`, speaker, text, spokenAt: start + i * 60_000 }));
}

const standup = meeting(
  ['Alice', 'Good morning everyone, let us start with the roadmap.'],
  ['Bob', 'The weather is terrible today, I got soaked on the way in.'],
  ['Bob', 'I promise to send the revised budget to finance by Friday.'],
  ['Carol', 'Great, and I will review the hiring plan next week.'],
  ['Alice', 'The roadmap review moves to Thursday.'],
  ['Bob', 'Sounds good to me.'],
);

describe('queryTerms', () => {
  it('stems content words, reads speaker names as speakers and drops stopwords', () => {
    const terms = queryTerms('What did Bob promise?', ['Alice', 'Bob']);
    expect([...terms.keys()].sort()).toEqual(['@bob', 'bob', 'promis']);
    expect(terms.get('promis')).toEqual({ weight: 1, content: true });
    expect(terms.get('@bob')?.content).toBe(false);
  });

  it('boosts with the previous question, or asks it again when the follow-up has no words of its own', () => {
    const boosted = queryTerms('When is the budget due?', ['Bob'], ['What did Bob promise?']);
    expect(boosted.get('budget')).toEqual({ weight: 1, content: true });
    expect(boosted.get('promis')).toEqual({ weight: 0.3, content: false });
    const again = queryTerms('Tell me more about that', ['Bob'], ['What did Bob promise?']);
    expect(again.get('promis')).toEqual({ weight: 1, content: true });
  });
});

describe('rankLines', () => {
  it("ranks Bob's promise first and never returns Bob's small talk for what Bob promised", () => {
    const ranked = rankLines(standup, 'What did Bob promise?');
    expect(ranked[0]!.index).toBe(2);
    expect(ranked.map((r) => r.index)).not.toContain(1);
    expect(ranked.map((r) => r.index)).not.toContain(5);
  });

  it('matches inflections through the stemmer and prefers the line with more query words', () => {
    const ranked = rankLines(standup, 'Who is reviewing the roadmap?');
    expect(ranked[0]!.index).toBe(4);
    expect(ranked.map((r) => r.index).sort()).toEqual([0, 3, 4]);
  });

  it('answers a question that only names a person with their lines', () => {
    const ranked = rankLines(standup, 'What did Carol say?');
    expect(ranked.map((r) => r.index)).toEqual([3]);
  });

  it('returns nothing when no line shares a word with the question', () => {
    expect(rankLines(standup, 'What about the marketing campaign?')).toEqual([]);
    expect(rankLines([], 'What did Bob promise?')).toEqual([]);
  });

  it('weighs rare words above common ones (IDF) and lets neighbours lift a passage', () => {
    const lines = meeting(
      ['A', 'The server is slow.'],
      ['B', 'The server migration is scheduled.'],
      ['A', 'The migration needs a database freeze.'],
      ['B', 'The server room is cold.'],
    );
    const ranked = rankLines(lines, 'When is the server migration?');
    expect(ranked[0]!.index).toBe(1);
    // Line 2 only says "migration" but sits next to the best line; line 3 only says "server".
    expect(ranked.findIndex((r) => r.index === 2)).toBeLessThan(ranked.findIndex((r) => r.index === 3));
  });
});

describe('selectWindows', () => {
  const ranked = [
    { index: 10, score: 3, windowScore: 3 },
    { index: 50, score: 2, windowScore: 2 },
    { index: 11, score: 1, windowScore: 1 },
  ];

  it('sends each hit with its neighbours, best first, merged and in spoken order, within the budget', () => {
    expect(selectWindows(ranked, 100, { radius: 1, budget: 100, cost: () => 10 })).toEqual([9, 10, 11, 12, 49, 50, 51]);
    // Room for the first window and the second hit alone.
    expect(selectWindows(ranked, 100, { radius: 1, budget: 40, cost: () => 10 })).toEqual([9, 10, 11, 50]);
  });

  it('keeps windows inside the transcript', () => {
    expect(selectWindows([{ index: 0, score: 1, windowScore: 1 }], 2, { radius: 2, budget: 100, cost: () => 1 })).toEqual([0, 1]);
  });

  it('takes the latest lines when nothing matches', () => {
    expect(latestWithin(10, 25, () => 10)).toEqual([8, 9]);
  });
});
