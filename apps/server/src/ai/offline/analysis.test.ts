import { describe, expect, it } from 'vitest';
import { analyse, GRAPH_LIMIT, graphCandidates } from './analysis.js';
import { generateOffline } from './engine.js';
import { normalise } from './rank.js';

describe('graph candidates of long meetings', () => {
  it('keeps every informative sentence up to the limit', () => {
    const ids = [0, 2, 3, 7];
    expect(graphCandidates(ids, [0.1, 0, 0.2, 0.3, 0, 0, 0, 0.4], 4)).toEqual(ids);
  });

  it('beyond the limit keeps the sentences closest to the centroid of every section, in spoken order', () => {
    const ids = Array.from({ length: 3000 }, (_, i) => i);
    // Closeness rises within each block of 100: the last ones of a block are the most central.
    const closeness = ids.map((i) => (i % 100) / 100);
    const chosen = graphCandidates(ids, closeness, 300);
    expect(chosen).toHaveLength(300);
    expect(chosen).toEqual([...chosen].sort((a, b) => a - b));
    // 30 sections of 100 sentences, 10 from each: its 10 most central.
    for (let section = 0; section < 30; section++) {
      expect(chosen.filter((id) => Math.floor(id / 100) === section)).toEqual(Array.from({ length: 10 }, (_, k) => section * 100 + 90 + k));
    }
  });
});

describe('offline engine on a long meeting', () => {
  // Near-identical lines make every pair of sentences similar: the case that once filled the heap
  // with one edge object per pair.
  const transcript = Array.from({ length: 4 * GRAPH_LIMIT }, (_, i) => ({
    speaker: ['Ana Lopez', 'Bo Chen', 'Cy Dube'][i % 3]!,
    text: `Line ${i + 1} of the long meeting, about the ${['budget', 'launch', 'hiring'][i % 3]} plan for the next quarter.`,
  }));

  // Tagging 6,000 lines with wink-nlp takes seconds on a loaded machine.
  it('ranks only a bounded graph and still scores every sentence', { timeout: 60_000 }, () => {
    const a = analyse(transcript);
    expect(a.sentences).toHaveLength(transcript.length);
    expect(a.centrality.every((c) => c > 0 && c <= 1)).toBe(true);
  });

  it('summarises it with the speakers and the meeting\'s words', { timeout: 60_000 }, () => {
    const { html } = generateOffline({ transcript, promptKey: 'summary', settings: { depth: 'deep', minLength: 200, maxLength: 0, translateTo: '' } });
    expect(html).toMatch(/^<p>Ana Lopez, Bo Chen and Cy Dube discussed /);
    expect(html).toMatch(/<li>Line \d+ of the long meeting/);
  });
});

describe('normalise', () => {
  it('scales more scores than a call may take arguments', () => {
    const scores = Array.from({ length: 300_000 }, (_, i) => i);
    const out = normalise(scores);
    expect(out[0]).toBe(0);
    expect(out.at(-1)).toBe(1);
  });
});
