import type { Minutes, MinutesItem } from '../minutes.js';
import { cosine, type SparseVector } from './rank.js';
import { wordCount, type Sentence } from './text.js';

/** A sentence in the running for an answer, with how well it serves it. */
export interface Candidate {
  sentence: Sentence;
  score: number;
  vector: SparseVector;
}

/** A chosen point: the note written from its sentence, the lines it cites, its score. */
export interface Note extends MinutesItem {
  sentence: Sentence;
  score: number;
  vector: SparseVector;
  words: number;
}

/**
 * The variant order of Regenerate: variant 0 (the first generation) ranks by score alone; variant n
 * multiplies each candidate's score by a factor between 0.7 and 1.3 drawn from a hash of (n, sentence),
 * so each regeneration picks a different, still well-ranked selection, and the same variant always the same.
 */
export function variantFactor(variant: number, id: number): number {
  if (!variant) return 1;
  // A small integer hash (xorshift-multiply) of the pair: deterministic, well spread.
  let h = Math.imul(variant ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(id + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  h ^= h >>> 13;
  return 0.7 + 0.6 * ((h >>> 0) / 0xffffffff);
}

export interface PickOptions {
  minWords: number;
  /** 0 = no limit. */
  maxWords: number;
  maxItems?: number;
  /** Weight of relevance against novelty (maximal marginal relevance). */
  lambda?: number;
  /** Candidates more similar than this to a chosen one are skipped. */
  redundancy?: number;
  variant?: number;
  /** Writes the point of a candidate; undefined drops it (nothing worth noting). */
  write: (c: Candidate) => MinutesItem | undefined;
  /** Notes already taken elsewhere: the new ones should neither repeat nor resemble them. */
  taken?: readonly Note[];
}

/**
 * Maximal marginal relevance over written notes: takes the best candidates while penalising those
 * that repeat what is chosen, until the notes reach `minWords` (counting the notes' words, not the
 * sentences': notes are shorter).
 */
export function pickNotes(candidates: readonly Candidate[], options: PickOptions): Note[] {
  const lambda = options.lambda ?? 0.75;
  const redundancy = options.redundancy ?? 0.5;
  const pool = candidates
    .map((c) => ({ ...c, score: c.score * variantFactor(options.variant ?? 0, c.sentence.id) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 300);
  const written = new Map<number, MinutesItem | null>();
  const noteOf = (c: Candidate) => {
    let item = written.get(c.sentence.id);
    if (item === undefined) {
      item = options.write(c) ?? null;
      written.set(c.sentence.id, item);
    }
    return item;
  };
  const chosen: Note[] = [];
  const seen = new Set((options.taken ?? []).map((n) => n.text.toLowerCase()));
  const replies = new Set<number>();
  let total = 0;
  while (pool.length > 0 && total < options.minWords && chosen.length < (options.maxItems ?? Infinity)) {
    let best = -1;
    let bestValue = -Infinity;
    for (let i = 0; i < pool.length; i++) {
      const cand = pool[i]!;
      const sim = [...(options.taken ?? []), ...chosen].reduce((m, c) => Math.max(m, cosine(c.vector, cand.vector)), 0);
      if (sim > redundancy) continue;
      const value = lambda * cand.score - (1 - lambda) * sim;
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    }
    if (best < 0) break;
    const [picked] = pool.splice(best, 1);
    const item = noteOf(picked!);
    // The same point twice adds nothing, nor a line already quoted as another point's reply ("Ben did not know").
    if (!item || seen.has(item.text.toLowerCase()) || replies.has(picked!.sentence.line)) continue;
    const quoted = item.lines.filter((l) => l !== picked!.sentence.line);
    const covered = chosen.filter((n) => n.lines.length === 1 && quoted.includes(n.sentence.line));
    for (const n of covered) {
      chosen.splice(chosen.indexOf(n), 1);
      total -= n.words;
    }
    const words = itemWords(item);
    if (options.maxWords > 0 && total + words > options.maxWords) continue;
    seen.add(item.text.toLowerCase());
    for (const line of item.lines) if (line !== picked!.sentence.line) replies.add(line);
    chosen.push({ ...item, sentence: picked!.sentence, score: picked!.score, vector: picked!.vector, words });
    total += words;
  }
  return chosen;
}

export function itemWords(item: MinutesItem): number {
  return wordCount(item.text) + (item.lead ? wordCount(item.lead) : 0);
}

/** Words a reader sees in minutes (citations are not words). */
export function minutesWords(minutes: Minutes): number {
  let n = 0;
  for (const block of minutes.blocks) {
    if (block.kind === 'heading') n += wordCount(block.text);
    else if (block.kind === 'paragraph') n += itemWords(block.item);
    else for (const item of block.items) n += itemWords(item);
  }
  return n;
}

/** Drops the weakest notes until the minutes built from the rest fit `maxWords` (0 = no limit). */
export function fitToMax(notes: readonly Note[], build: (kept: readonly Note[]) => Minutes, maxWords: number): Minutes {
  let kept = [...notes];
  let minutes = build(kept);
  while (maxWords > 0 && kept.length > 1 && minutesWords(minutes) > maxWords) {
    const weakest = kept.reduce((w, c) => (c.score < w.score ? c : w));
    kept = kept.filter((k) => k !== weakest);
    minutes = build(kept);
  }
  return minutes;
}

export const chronological = (a: { sentence: Sentence }, b: { sentence: Sentence }) => a.sentence.id - b.sentence.id;
