/** The summary types of the offline engine: by topic (standard), in depth, by speaker; and the topic segments they share. */
import { type SummarySettings } from '@mbox/shared';
import { type Minutes, type MinutesBlock } from '../minutes.js';
import { isInformative, type Analysis } from './analysis.js';
import { OPINION_CUES, cueScore } from './cues.js';
import { clockTime } from './dates.js';
import { tagSentences } from './nlp.js';
import { centroid, cosine, keyPhrases, segmentTopics } from './rank.js';
import { chronological, fitToMax, minutesWords, pickNotes, type Candidate, type Note } from './select.js';
import { contentTerms, wordCount, type Sentence } from './text.js';
import { capitaliseFirst, heading, list, overviewSentence, paragraph, plainItem, ranked, type Context } from './context.js';

export interface Segment {
  sentences: Sentence[];
  /** Its key phrases, the first the most telling. */
  phrases: string[];
  label: string;
  /** "(10:02–10:15)" when the lines have times. */
  range: string;
}

/**
 * Meetings of long turns (committee hearings, interviews: 30 words a turn or more) move through their
 * topics one question at a time, and their summary takes a point from each topic before the best of
 * the rest; conversations of short turns keep coming back to the same topics, and their most central
 * points serve them better (tuned on QMSum train, docs/ai.md).
 */
const ANCHORED_TURN_WORDS = 30;
/** Weight of relevance against novelty when a summary's notes are picked after its anchors (pickNotes: 0.75). */
const REST_LAMBDA = 0.6;
/** Most of a summary's words the points of each topic take. */
const ANCHOR_SHARE = 0.4;

export function topicCount(a: Analysis): number {
  return Math.max(2, Math.min(8, Math.round(a.totalWords / 700)));
}

/** Most words of a topic label: "Selling price", "Menu display and buttons". */
export const LABEL_WORDS = 4;

/** A short label from a span's key phrases: the first, and the second too while the label stays short. */
export function topicLabel(phrases: readonly string[]): string | undefined {
  const [first, second] = phrases;
  if (!first) return undefined;
  const both = second ? `${first} and ${second}` : first;
  return capitaliseFirst(second && wordCount(both) <= LABEL_WORDS && wordCount(first) === 1 ? both : first);
}

/** Entities that measure rather than name a subject: "year", "ten minutes". */
export const MEASURES: ReadonlySet<string> = new Set(['DATE', 'DURATION', 'TIME', 'CARDINAL', 'ORDINAL', 'PERCENT']);

/**
 * Whether a phrase names a thing a topic can be about: read on its own, its last word is a noun and no
 * measure ("important" tagged a noun inside a sentence, "year" are not).
 */
export function namesAThing(phrase: string): boolean {
  const last = tagSentences(phrase).flatMap((s) => s.tokens).at(-1);
  return last !== undefined && (last.pos === 'NOUN' || last.pos === 'PROPN') && !(last.entity && MEASURES.has(last.entity));
}

/**
 * Each segment's key phrases, fresh ones first: a phrase whose words already label another segment
 * ("local authority" twice) gives way to the next one, so labels tell segments apart.
 */
export function distinctPhrases(candidates: readonly string[][]): string[][] {
  const used = new Set<string>();
  return candidates.map((phrases) => {
    const fresh = phrases.filter((p) => !contentTerms(p).some((t) => used.has(t)));
    const chosen = (fresh.length > 0 ? fresh : phrases).slice(0, 2);
    for (const p of chosen) for (const t of contentTerms(p)) used.add(t);
    return chosen;
  });
}

/** The meeting cut into topics (TextTiling-like, rank.ts) with a label and a time range each. */
export function segments(c: Context): Segment[] {
  const { a } = c;
  const parts = segmentTopics(a.sentences, a.vectors, topicCount(a)).map((ids) => ids.map((id) => a.sentences[id]!));
  // What a segment is about is said in its central sentences, not in its asides.
  const weight = (s: Sentence) => (isInformative(s) ? 0.25 + a.centrality[s.id]! : 0.1);
  const phrases = distinctPhrases(parts.map((part, k) => keyPhrases(part, parts.filter((_, j) => j !== k), 6, c.names, weight).filter(namesAThing)));
  return parts.map((part, k) => {
    const label = topicLabel(phrases[k]!) ?? (c.document ? 'Summary' : `Part ${k + 1}`);
    const first = part[0]?.spokenAt;
    const last = part[part.length - 1]?.spokenAt;
    const range = first !== undefined && last !== undefined ? ` (${clockTime(first, c.clock)}–${clockTime(last, c.clock)})` : '';
    return { sentences: part, phrases: phrases[k]!, label, range };
  });
}

/** A statement worth a summary's point: informative, and not a question. */
export const statement = (s: Sentence) => isInformative(s) && !s.question;

/**
 * The opening, where a chair says what the meeting is ("Welcome to the seventh meeting of the Special
 * Committee on the COVID-19 Pandemic", "Item 2 is a scrutiny session with a focus on higher education"):
 * its first 3 % of sentences, and the most of a summary's words its statements of that kind take.
 */
const OPENING_SHARE = 0.03;
const OPENING_WORDS = 30;
/** Nouns that name a meeting or a part of it. */
const MEETING_NOUNS: ReadonlySet<string> = new Set(['meeting', 'session', 'committee', 'agenda', 'item', 'inquiry', 'hearing']);
/** Prepositions that introduce what a meeting is about ("a session on…", "an inquiry into…"). */
const SUBJECT_PREPOSITIONS: ReadonlySet<string> = new Set(['of', 'on', 'into', 'for', 'about', 'with']);

/**
 * Whether a sentence says what the meeting is: a noun naming the meeting with words that qualify it —
 * before it ("scrutiny session", "Education Committee") or a preposition after it ("meeting of the
 * Special Committee"). "I call this meeting to order" and "welcome Dawn to the committee" do not.
 */
function namesTheMeeting(s: Sentence): boolean {
  const tokens = tagSentences(s.text).flatMap((t) => t.tokens);
  return tokens.some((t, i) => {
    if ((t.pos !== 'NOUN' && t.pos !== 'PROPN') || !MEETING_NOUNS.has(t.lemma.toLowerCase())) return false;
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    return (
      (before !== undefined && (before.pos === 'NOUN' || before.pos === 'PROPN' || before.pos === 'ADJ')) ||
      (after !== undefined && after.pos === 'ADP' && SUBJECT_PREPOSITIONS.has(after.normal))
    );
  });
}

/**
 * Notes for a summary of about `minWords` words: first what the opening says the meeting is (centrality
 * misses it: it is said once), then for a meeting of long turns the best point of each topic, so its
 * summary covers all of it rather than its opening only, then the best of the whole meeting.
 */
function summaryNotes(c: Context, parts: readonly Segment[], minWords: number, maxWords: number): Note[] {
  const write = (cand: Candidate) => plainItem(c, cand.sentence);
  const all = ranked(c, statement);
  const anchors: Note[] = c.document
    ? []
    : pickNotes(
        all.filter((x) => x.sentence.position < OPENING_SHARE && namesTheMeeting(x.sentence)),
        { minWords: OPENING_WORDS, maxWords: OPENING_WORDS, variant: c.variant, write },
      );
  const openingWords = anchors.reduce((n, note) => n + note.words, 0);
  let topicWords = 0;
  if (parts.length > 2 && c.a.totalWords >= ANCHORED_TURN_WORDS * c.a.turns.length) {
    for (const part of parts) {
      const ids = new Set(part.sentences.map((s) => s.id));
      const [best] = pickNotes(
        all.filter((x) => ids.has(x.sentence.id) && !anchors.some((n) => n.sentence.id === x.sentence.id)),
        { minWords: 1, maxWords: 0, variant: c.variant, write, taken: anchors },
      );
      if (!best || topicWords + best.words > ANCHOR_SHARE * minWords) continue;
      anchors.push(best);
      topicWords += best.words;
    }
  }
  const anchorWords = openingWords + topicWords;
  const chosen = new Set(anchors.map((n) => n.sentence.id));
  const rest = pickNotes(
    all.filter((x) => !chosen.has(x.sentence.id)),
    {
      minWords: minWords - anchorWords,
      maxWords: maxWords > 0 ? Math.max(1, maxWords - anchorWords) : 0,
      // Past the anchors, what a note adds counts for more than for one point (QMSum val and train, docs/ai.md).
      lambda: REST_LAMBDA,
      variant: c.variant,
      write,
      taken: anchors,
    },
  );
  return [...anchors, ...rest].sort(chronological);
}

/** Fewest topics a summary of a meeting of three topics or more covers. */
const SUMMARY_MIN_TOPICS = 2;

/**
 * A summary's notes covering at least SUMMARY_MIN_TOPICS topics: when the most central points all fall in
 * one topic (a meeting of short turns whose opening is weighted up), the best point of the next largest
 * topics takes the words of the weakest notes. With REST_LAMBDA: QMSum val R-1 33.2 → 33.3, no meeting
 * below the lead baseline (Bmr026 was: all its notes came from its opening topic); train 34.7 → 34.8
 * (docs/ai.md, "Quality").
 */
function coverTopics(c: Context, parts: readonly Segment[], segmentOf: ReadonlyMap<number, Segment>, notes: Note[]): Note[] {
  if (c.document || parts.length < 3) return notes;
  const covered = new Set(notes.map((n) => segmentOf.get(n.sentence.id)));
  if (covered.size >= SUMMARY_MIN_TOPICS) return notes;
  const write = (cand: Candidate) => plainItem(c, cand.sentence);
  const all = ranked(c, statement);
  let kept = [...notes];
  const others = parts.filter((p) => !covered.has(p)).sort((x, y) => y.sentences.length - x.sentences.length);
  for (const part of others) {
    if (covered.size >= SUMMARY_MIN_TOPICS) break;
    const ids = new Set(part.sentences.map((s) => s.id));
    const [best] = pickNotes(all.filter((x) => ids.has(x.sentence.id)), { minWords: 1, maxWords: 0, variant: c.variant, write, taken: kept });
    if (!best) continue;
    // Its words come from the weakest notes of the topics already covered.
    let freed = 0;
    while (freed < best.words && kept.length > 1) {
      const weakest = kept.reduce((w, n) => (n.score < w.score ? n : w));
      kept = kept.filter((n) => n !== weakest);
      freed += weakest.words;
    }
    kept.push(best);
    covered.add(part);
  }
  return kept.sort(chronological);
}

/** Documents are summarised, never returned whole: at most half their words. */
function documentCap(c: Context, words: number): number {
  return c.document ? Math.min(words, Math.max(15, Math.round(c.a.totalWords * 0.5))) : words;
}

/** Summary, standard depth: an overview, then the notes listed under the topic they belong to. */
export function summarise(c: Context): Minutes {
  const intro = overviewSentence(c);
  const introWords = wordCount(intro);
  const parts = segments(c);
  const segmentOf = new Map<number, Segment>();
  for (const p of parts) for (const s of p.sentences) segmentOf.set(s.id, p);
  const leadWords = parts.reduce((n, p) => n + wordCount(p.label), 0) / Math.max(1, parts.length);
  const max = c.budget.maxWords > 0 ? documentCap(c, c.budget.maxWords) : 0;
  const target = documentCap(c, Math.max(20, c.budget.minWords - introWords - leadWords * Math.min(parts.length, 4)));
  const build = (kept: readonly Note[]): Minutes => {
    const blocks: MinutesBlock[] = [paragraph({ text: intro, lines: [] })];
    const sections = parts.map((part) => ({ part, mine: kept.filter((n) => segmentOf.get(n.sentence.id) === part) })).filter((x) => x.mine.length > 0);
    // One topic needs no heading; several are each a heading over their points.
    if (sections.length === 1) blocks.push(list(sections[0]!.mine));
    else for (const { part, mine } of sections) blocks.push(heading(part.label), list(mine));
    return { blocks };
  };
  const noteWords = max > 0 ? max - introWords : 0;
  let notes = coverTopics(c, parts, segmentOf, summaryNotes(c, parts, target, noteWords));
  // The target allowed for a heading per topic; when the notes fall under fewer, the words they leave go to more notes.
  const short = c.budget.minWords - minutesWords(build(notes));
  if (short > 0) notes = summaryNotes(c, parts, documentCap(c, target + short), noteWords);
  return fitToMax(notes, build, max);
}

/** Deep summary: a heading per topic with its time range, its notes listed. */
export function deepSummary(c: Context): Minutes {
  const intro = overviewSentence(c);
  const parts = segments(c);
  const total = parts.reduce((sum, p) => sum + p.sentences.reduce((w, s) => w + s.words, 0), 0) || 1;
  const max = c.budget.maxWords > 0 ? documentCap(c, c.budget.maxWords) : 0;
  const headingWords = parts.reduce((n, p) => n + wordCount(p.label + p.range), 0);
  const target = documentCap(c, Math.max(60, c.budget.minWords - wordCount(intro) - headingWords));
  const sections: { part: Segment; notes: Note[] }[] = [];
  for (const part of parts) {
    const share = part.sentences.reduce((w, s) => w + s.words, 0) / total;
    const local = centroid(part.sentences.map((s) => c.a.vectors[s.id]!));
    const ids = new Set(part.sentences.map((s) => s.id));
    const pool = ranked(c, (s) => ids.has(s.id) && isInformative(s)).map((cand) => ({
      ...cand,
      score: (0.5 * c.a.centrality[cand.sentence.id]! + 0.5 * cosine(cand.vector, local)) * (cand.sentence.question ? 0.6 : 1),
    }));
    const notes = pickNotes(pool, { minWords: Math.max(12, target * share), maxWords: 0, variant: c.variant, write: (cand) => plainItem(c, cand.sentence) });
    if (notes.length > 0) sections.push({ part, notes: notes.sort(chronological) });
  }
  const build = (kept: readonly Note[]): Minutes => {
    const blocks: MinutesBlock[] = [paragraph({ text: intro, lines: [] })];
    for (const { part, notes } of sections) {
      const mine = notes.filter((n) => kept.includes(n));
      if (mine.length === 0) continue;
      blocks.push(heading(part.label + part.range), list(mine));
    }
    return { blocks };
  };
  return fitToMax(
    sections.flatMap((s) => s.notes),
    build,
    max,
  );
}

/** By speaker: each speaker's positions (opinions, proposals, commitments) under their name. */
export function bySpeaker(c: Context): Minutes {
  const { a } = c;
  const target = Math.max(40, c.budget.minWords - a.speakers.length);
  const spoken = new Map<string, number>();
  for (const s of a.sentences) spoken.set(s.speaker, (spoken.get(s.speaker) ?? 0) + s.words);
  const groups: { speaker: string; notes: Note[] }[] = [];
  for (const speaker of a.speakers) {
    const share = (spoken.get(speaker) ?? 0) / Math.max(1, a.totalWords);
    const pool = ranked(c, (s) => s.speaker === speaker && isInformative(s)).map((cand) => ({
      ...cand,
      // A position is stated ("I think we should…", "I'd rather…"): opinion cues weigh in.
      score: cand.score * (1 + 0.5 * Math.min(2, cueScore(cand.sentence.text, OPINION_CUES))),
    }));
    if (pool.length === 0) continue;
    // Everyone who said something substantial gets at least one point.
    const notes = pickNotes(pool, { minWords: Math.max(8, target * share), maxWords: 0, variant: c.variant, write: (cand) => plainItem(c, cand.sentence) });
    if (notes.length > 0) groups.push({ speaker, notes: notes.sort(chronological) });
  }
  const build = (kept: readonly Note[]): Minutes => ({
    blocks: groups.flatMap((g) => {
      const mine = g.notes.filter((n) => kept.includes(n));
      return mine.length > 0 ? [heading(g.speaker), list(mine)] : [];
    }),
  });
  return fitToMax(
    groups.flatMap((g) => g.notes),
    build,
    c.budget.maxWords,
  );
}

export function summaryForDepth(c: Context, settings: SummarySettings): Minutes {
  if (settings.depth === 'speaker' && !c.document) return bySpeaker(c);
  if (settings.depth === 'deep') return deepSummary(c);
  return summarise(c);
}
