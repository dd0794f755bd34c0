/** What every offline prompt type reads (the analysed meeting and the request), and the notes' building blocks. */
import { type LengthBudget } from '../length.js';
import { type Minutes, type MinutesBlock, type MinutesItem } from '../minutes.js';
import { isInformative, type Analysis } from './analysis.js';
import { type MeetingClock } from './dates.js';
import { shortName, writeNote } from './notes.js';
import { keyPhrases } from './rank.js';
import { chronological, fitToMax, pickNotes, type Candidate, type Note } from './select.js';
import { joinNames, wordCount, type Sentence } from './text.js';

/** Everything a prompt type reads: the analysed meeting and the request's options. */
export interface Context {
  a: Analysis;
  budget: LengthBudget;
  variant: number;
  document: boolean;
  clock: MeetingClock;
  /** Speakers' names and their words, left out of topic labels. */
  names: ReadonlySet<string>;
}

/** Most words of a note taken from a document. */
export const DOCUMENT_NOTE_WORDS = 35;

export const paragraph = (item: MinutesItem): MinutesBlock => ({ kind: 'paragraph', item });
export const list = (items: readonly MinutesItem[], ordered = false): MinutesBlock => ({ kind: 'list', items, ordered });
export const heading = (text: string): MinutesBlock => ({ kind: 'heading', text });
export const capitaliseFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The note of a sentence: in the third person for meetings (its speaker named), as written for
 * documents, whose sentences are written to be read and may run longer; '' when it cannot be cut
 * at a clause boundary.
 */
export function noteOf(c: Context, s: Sentence): string {
  return writeNote(s.text, c.document ? { maxWords: DOCUMENT_NOTE_WORDS } : { speaker: s.speaker });
}

export function plainItem(c: Context, s: Sentence, extraLines: readonly number[] = []): MinutesItem | undefined {
  const text = noteOf(c, s);
  if (wordCount(text) < 3) return undefined;
  return { text, lines: [s.line, ...extraLines] };
}

/** Sentences ranked for a summary: centrality, statements over questions, the opening (agenda) a little higher. */
export function ranked(c: Context, filter: (s: Sentence) => boolean = isInformative): Candidate[] {
  const { a } = c;
  return a.sentences.filter(filter).map((s) => ({
    sentence: s,
    // Questions ask rather than state. Meetings set out their agenda first: the opening weighs up to 5×,
    // falling to 1× at a tenth of the meeting (tuned on QMSum train: ROUGE-1 31.1 → 33.1, meetings below the lead baseline 10 → 4 of 54).
    score: a.centrality[s.id]! * (s.question ? 0.6 : 1) * (1 + 4 * Math.max(0, 1 - s.position / 0.1)),
    vector: a.vectors[s.id]!,
  }));
}

export function speakersPhrase(a: Analysis): string {
  const names = a.speakers.map(shortName);
  if (names.length <= 4) return joinNames(names);
  return `${names.length} participants, mainly ${joinNames(names.slice(0, 3))}`;
}

/** One-sentence overview: who met and the key phrases of the meeting. */
export function overviewSentence(c: Context): string {
  const topics = keyPhrases(c.a.sentences, [], 4, c.names, (s) => (isInformative(s) ? 0.25 + c.a.centrality[s.id]! : 0.1));
  const about = topics.length > 0 ? joinNames(topics) : 'the points below';
  return c.document ? `The text covers ${about}.` : `${speakersPhrase(c.a)} discussed ${about}.`;
}

export function emptyAnswer(): Minutes {
  return { blocks: [paragraph({ text: 'The transcript has no usable text to summarise yet.', lines: [] })] };
}

/** Candidates a list turns to when its own are few: work suggested after the commitments of an action list. */
export interface Fallback {
  pool: readonly Candidate[];
  write: (s: Sentence) => MinutesItem | undefined;
  /** The list turns to them while it has fewer items than this. */
  below: number;
}

/**
 * The best distinct candidates of a list prompt as notes in spoken order, within the length settings;
 * then, while they are fewer than `fallback.below`, the fallback's best, ranked after them; `empty`
 * when none.
 */
export function listOfNotes(c: Context, pool: readonly Candidate[], write: (s: Sentence) => MinutesItem | undefined, empty: string, fallback?: Fallback): Minutes {
  const pick = (candidates: readonly Candidate[], writer: (s: Sentence) => MinutesItem | undefined, taken: readonly Note[]) =>
    pickNotes(candidates, {
      minWords: Number.POSITIVE_INFINITY,
      maxWords: c.budget.maxWords > 0 ? Math.max(1, c.budget.maxWords - taken.reduce((n, t) => n + t.words, 0)) : 0,
      maxItems: c.budget.maxItems - taken.length,
      lambda: 0.85,
      redundancy: 0.4,
      variant: c.variant,
      write: (cand) => writer(cand.sentence),
      taken,
    });
  const notes = pick(pool, write, []);
  if (fallback && notes.length < fallback.below && notes.length < c.budget.maxItems) {
    // Below every note of the list's own: fitting the maximum drops them first.
    const weakest = Math.min(...notes.map((n) => n.score), Number.POSITIVE_INFINITY);
    const more = pick(fallback.pool, fallback.write, notes);
    const top = Math.max(...more.map((n) => n.score), 0) || 1;
    notes.push(...more.map((n) => ({ ...n, score: (Number.isFinite(weakest) ? weakest : 1) * 0.5 * (n.score / top) })));
  }
  notes.sort(chronological);
  if (notes.length === 0) return { blocks: [paragraph({ text: empty, lines: [] })] };
  return fitToMax(notes, (kept) => ({ blocks: [list(kept)] }), c.budget.maxWords);
}
