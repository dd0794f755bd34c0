import type Sentiment from 'sentiment';
import { PROMPTS, type PromptKey, type SummarySettings } from '@mbox/shared';
import { lazyRequire } from '../../lazy-require.js';
import { lengthBudget } from '../length.js';
import { renderMinutes, type CitedHtml, type Minutes, type MinutesBlock, type MinutesItem } from '../minutes.js';
import type { TranscriptTurn } from '../types.js';
import { readAction } from './actions.js';
import { analyse, isInformative, type Analysis } from './analysis.js';
import { ACTION_CUES, AGREEMENT, NOT_ACCEPTING, GOAL_CUES, ISSUE_CUES, MISSING_CUES, NEXT_CUES, NON_ANSWER, PROPOSAL_CUES, cueScore, type Cue } from './cues.js';
import { acceptedBy, complete, decisions } from './decisions.js';
import { shortName } from './notes.js';
import { centroid, cosine, normalise } from './rank.js';
import { minutesWords, type Candidate } from './select.js';
import { contentTerms, joinNames, wordCount, type Sentence } from './text.js';
import { emptyAnswer, list, listOfNotes, noteOf, overviewSentence, paragraph, plainItem, speakersPhrase, type Context } from './context.js';
import { segments, summaryForDepth } from './summaries.js';

/** The AFINN word list behind the sentiment reading loads with the first summary, not at start-up. */
const sentiment = lazyRequire<typeof Sentiment>('sentiment');

export interface OfflineRequest {
  transcript: readonly TranscriptTurn[];
  promptKey: PromptKey;
  settings: SummarySettings;
  customPrompt?: string;
  /** A document (tools summarizer) has no speakers to attribute and no lines to cite. */
  material?: 'meeting' | 'document';
  /** Regenerate's variant (0 = first generation): see `variantFactor` in select.ts. */
  variant?: number;
  /** The meeting owner's time zone, for due dates and topic times. */
  timeZone?: string;
}

/** The turn after a sentence's turn when someone else speaks it. */
function reply(a: Analysis, s: Sentence, offset = 1): { speaker: string; text: string; line: number } | undefined {
  const t = a.turns[s.turn + offset];
  return t && t.speaker !== s.speaker ? t : undefined;
}

interface CueOptions {
  /** Fewest content words a sentence needs (2: "Send that link." names too little for most prompts). */
  minTerms?: number;
  cues: readonly Cue[];
  /** Extra weight from the sentence's context (position, replies). */
  boost?: (s: Sentence) => number;
  filter?: (s: Sentence) => boolean;
  empty: string;
  /** The point of a sentence (default: its note). */
  write?: (s: Sentence) => MinutesItem | undefined;
  /** Least cue score to be considered. */
  threshold?: number;
}

/**
 * Sentences ranked by their cue phrases times their weight in the meeting (chit-chat is far from
 * what the meeting is about and ranks low), the best distinct ones as notes in spoken order.
 */
function extractByCues(c: Context, options: CueOptions): Minutes {
  return listOfNotes(c, cuePool(c, options), (sentence) => (options.write ? options.write(sentence) : plainItem(c, sentence)), options.empty);
}

/** The sentences whose cues reach the threshold, each scored by its cues times its weight in the meeting. */
function cuePool(c: Context, options: Omit<CueOptions, 'empty' | 'write'>): Candidate[] {
  const { a } = c;
  const pool: Candidate[] = [];
  for (const s of a.sentences) {
    // Short statements ("Let's go with Lenovo.") can carry a whole decision: a lower bar than summaries.
    if (s.words < 4 || s.terms.length < (options.minTerms ?? 2) || (options.filter && !options.filter(s))) continue;
    const cue = cueScore(s.text, options.cues) + (options.boost?.(s) ?? 0);
    // A regeneration also admits weaker cues, so a meeting whose every candidate was shown still gets another selection.
    if (cue < (options.threshold ?? 1.5) * (c.variant > 0 ? 0.6 : 1)) continue;
    const closeness = cosine(a.vectors[s.id]!, a.meetingCentroid);
    pool.push({ sentence: s, score: cue * (0.25 + a.centrality[s.id]! + closeness), vector: a.vectors[s.id]! });
  }
  return pool;
}

/** Action lists with fewer commitments than this also list work suggested that nobody took on. */
const FEW_ACTIONS = 8;

/**
 * Action items: owner (who commits, or who is asked), task, due date; chit-chat, the meeting's own
 * routine and suppositions have no task and are left out. A meeting with few commitments also lists
 * work suggested ("we should check the chips") as unassigned, after them.
 */
function actions(c: Context): Minutes {
  const { a } = c;
  const write = (s: Sentence, suggested: boolean): MinutesItem | undefined => {
    const action = readAction(s.text, s.speaker, a.speakers, c.clock, { agenda: s.position < 0.15, suggested });
    if (!action) return undefined;
    // Work suggested is an item when said as needed ("we should check the chips") or, if only possible
    // ("we could…"), when the others take it up; and when it reads as a task of its own, not a broken line.
    const agreed = suggested ? acceptedBy(a, s) : undefined;
    if (suggested && ((action.tentative && !agreed) || !complete(`The team will ${action.task.charAt(0).toLowerCase()}${action.task.slice(1)}.`))) return undefined;
    const asked = action.addressed ? reply(a, s) : undefined;
    // "You'll draft it" said to no one by name is a task only when someone takes it up: otherwise
    // it is the generic "you" of speech ("you add two to that").
    if (action.addressed && !s.question && !(asked && AGREEMENT.test(asked.text.trim()) && !NOT_ACCEPTING.test(asked.text))) return undefined;
    // The team's tasks name who committed on its behalf.
    const owner = action.owner === 'Team' ? `Team (${shortName(s.speaker)})` : action.owner || asked?.speaker || 'Unassigned';
    const text = action.due ? `${action.task} — due ${action.due}.` : `${action.task}.`;
    return { lead: c.document ? undefined : owner, text, lines: [s.line, ...(asked ? [asked.line] : []), ...(agreed?.lines ?? [])] };
  };
  const boost = (s: Sentence) => (s.position > 0.6 ? 0.5 : 0);
  return listOfNotes(
    c,
    // A task may name one thing: "we'll have to come up with a name".
    cuePool(c, { cues: ACTION_CUES, boost, threshold: 1, minTerms: 1 }),
    (s) => write(s, false),
    'No action items were assigned in this meeting.',
    { pool: cuePool(c, { cues: PROPOSAL_CUES, boost, threshold: 1, filter: (s) => !s.question }), write: (s) => write(s, true), below: FEW_ACTIONS },
  );
}

function nextSteps(c: Context): Minutes {
  return extractByCues(c, {
    cues: NEXT_CUES,
    // Next steps are mostly agreed near the end of a meeting.
    boost: (s) => (s.position > 0.75 ? 1 : s.position > 0.5 ? 0.5 : 0),
    filter: (s) => !s.question,
    empty: 'No next step was named in this meeting.',
  });
}

/** A question that stayed open, with the reply that shows it; undefined when it was answered. */
function openQuestion(c: Context, s: Sentence): MinutesItem | undefined {
  const r = reply(c.a, s);
  const unknown = r !== undefined && NON_ANSWER.test(r.text);
  if (r && !unknown && (AGREEMENT.test(r.text.trim()) || wordCount(r.text) >= 6)) return undefined;
  const item = plainItem(c, s);
  if (!item || c.document) return item;
  const answer = unknown ? `${r.speaker} did not know.` : 'No clear answer was given.';
  return { ...item, lead: s.speaker, text: `${item.text} ${answer}`, lines: r ? [s.line, r.line] : [s.line] };
}

function unanswered(a: Analysis, s: Sentence): boolean {
  const r = reply(a, s);
  return s.question && (!r || NON_ANSWER.test(r.text) || wordCount(r.text) < 3);
}

function issues(c: Context): Minutes {
  const { a } = c;
  return extractByCues(c, {
    cues: ISSUE_CUES,
    boost: (s) => (unanswered(a, s) ? 1.5 : 0),
    empty: 'No unresolved issue came up in this meeting.',
    write: (s) => (s.question ? openQuestion(c, s) : plainItem(c, s)),
  });
}

function missingInformation(c: Context): Minutes {
  const { a } = c;
  return extractByCues(c, {
    cues: MISSING_CUES,
    // A question whose reply is short or a "don't know" is information the meeting lacked.
    boost: (s) => {
      if (!s.question) return 0;
      const r = reply(a, s);
      if (!r) return 1.5;
      if (NON_ANSWER.test(r.text)) return 2.5;
      return wordCount(r.text) < 6 ? 1.5 : 0.5;
    },
    empty: 'No missing information stood out in this meeting.',
    write: (s) => (s.question ? openQuestion(c, s) : plainItem(c, s)),
  });
}

function goals(c: Context): Minutes {
  const found = extractByCues(
    { ...c, budget: { ...c.budget, maxItems: Math.min(c.budget.maxItems, 5) } },
    {
      cues: GOAL_CUES,
      // Goals are usually set out at the start.
      boost: (s) => (s.position < 0.15 ? 1.5 : s.position < 0.35 ? 0.5 : 0),
      filter: (s) => !s.question,
      empty: 'No goal was stated explicitly.',
    },
  );
  return { blocks: [paragraph({ text: overviewSentence(c), lines: [] }), ...found.blocks] };
}

/** The most central statement of a segment that makes a note. */
function centralSentence(c: Context, part: readonly Sentence[]): Sentence | undefined {
  const local = centroid(part.map((s) => c.a.vectors[s.id]!));
  const value = (s: Sentence) => cosine(c.a.vectors[s.id]!, local) + c.a.centrality[s.id]!;
  const order = part.filter((s) => isInformative(s) && !s.question).sort((x, y) => value(y) - value(x));
  return order.slice(0, 10).find((s) => plainItem(c, s)) ?? order[0];
}

/** Main topics: the meeting's segments in order, each with its label, time range and central point. */
function topics(c: Context): Minutes {
  const items = segments(c).map((part) => {
    const best = centralSentence(c, part.sentences);
    const note = best ? plainItem(c, best) : undefined;
    return {
      item: { lead: part.label + part.range, text: note?.text ?? '', lines: note?.lines ?? [] },
      size: part.sentences.length,
    };
  });
  let kept = items.slice(0, c.budget.maxItems);
  const build = () => ({ blocks: [list(kept.map((k) => k.item), true)] });
  while (c.budget.maxWords > 0 && kept.length > 1 && minutesWords(build()) > c.budget.maxWords) {
    const smallest = kept.reduce((w, k) => (k.size < w.size ? k : w));
    kept = kept.filter((k) => k !== smallest);
  }
  return build();
}

/** Summary in one sentence: who met, about what, citing the central line of each topic named. */
function purpose(c: Context): Minutes {
  const parts = segments(c);
  const labels = [...new Set(parts.slice(0, 4).flatMap((p) => p.phrases.slice(0, 1)))];
  const lines = parts
    .slice(0, 4)
    .map((p) => centralSentence(c, p.sentences)?.line)
    .filter((l): l is number => l !== undefined);
  const about = labels.length > 0 ? joinNames(labels) : 'the points below';
  const text = c.document ? `The text covers ${about}.` : `${speakersPhrase(c.a)} met to discuss ${about}.`;
  return { blocks: [paragraph({ text, lines })] };
}

// Words that AFINN scores but meetings use as filler ("like", "yeah", "pretty much").
const NEUTRAL_IN_SPEECH: Record<string, number> = { like: 0, yeah: 0, yes: 0, okay: 0, ok: 0, well: 0, right: 0, pretty: 0, kind: 0, sort: 0, please: 0, thank: 0, thanks: 0, god: 0, jesus: 0, no: 0 };

function label(perHundred: number, positives: number, negatives: number): string {
  if (positives + negatives < 2) return 'Neutral';
  if (positives > 0 && negatives > 0 && Math.min(positives, negatives) / Math.max(positives, negatives) > 0.6 && Math.abs(perHundred) < 1.5) {
    return 'Mixed';
  }
  if (perHundred >= 1) return 'Positive';
  if (perHundred <= -0.5) return 'Negative';
  return 'Neutral';
}

/** Sentiment: the overall tone, each speaker's with an example, and the moments of tension. */
function sentimentReading(c: Context): Minutes {
  const { a } = c;
  const analyser = new (sentiment())();
  type Tally = { score: number; words: number; pos: number; neg: number; best?: [number, Sentence]; worst?: [number, Sentence] };
  const perSpeaker = new Map<string, Tally>();
  const total = { score: 0, words: 0, pos: 0, neg: 0 };
  const scored: { s: Sentence; score: number }[] = [];
  for (const s of a.sentences) {
    const r = analyser.analyze(s.text, { extras: NEUTRAL_IN_SPEECH });
    const entry = perSpeaker.get(s.speaker) ?? { score: 0, words: 0, pos: 0, neg: 0 };
    entry.score += r.score;
    entry.words += s.words;
    entry.pos += r.positive.length;
    entry.neg += r.negative.length;
    if (s.words >= 5 && r.score > 0 && (!entry.best || r.score > entry.best[0])) entry.best = [r.score, s];
    if (s.words >= 5 && r.score < 0 && (!entry.worst || r.score < entry.worst[0])) entry.worst = [r.score, s];
    perSpeaker.set(s.speaker, entry);
    total.score += r.score;
    total.words += s.words;
    total.pos += r.positive.length;
    total.neg += r.negative.length;
    scored.push({ s, score: r.score });
  }
  const overall = label((100 * total.score) / Math.max(1, total.words), total.pos, total.neg);
  const rows: MinutesItem[] = a.speakers.map((speaker) => {
    const e = perSpeaker.get(speaker)!;
    const l = label((100 * e.score) / Math.max(1, e.words), e.pos, e.neg);
    const example = l === 'Negative' ? (e.worst ?? e.best) : (e.best ?? e.worst);
    const note = example ? ` For example: ${noteOf(c, example[1])}` : '';
    return { lead: speaker, text: `${l} (${e.pos} positive, ${e.neg} negative expressions).${note}`, lines: example ? [example[1].line] : [] };
  });
  const tense = scored
    .filter((x) => x.score <= -3 && x.s.words >= 5)
    .sort((x, y) => x.score - y.score)
    .slice(0, 3)
    .sort((x, y) => x.s.id - y.s.id)
    .map((x) => plainItem(c, x.s))
    .filter((x): x is MinutesItem => x !== undefined);
  const blocks: MinutesBlock[] = [
    paragraph({ lead: 'Overall tone', text: `${overall} (${total.pos} positive and ${total.neg} negative expressions over ${total.words} words).`, lines: [] }),
    list(c.document ? [] : rows),
  ];
  if (tense.length > 0) blocks.push(paragraph({ lead: 'Moments of tension', text: '', lines: [] }), list(tense));
  else blocks.push(paragraph({ text: 'No moment of marked tension was found.', lines: [] }));
  return { blocks: blocks.filter((b) => b.kind !== 'list' || b.items.length > 0) };
}

/** Words that frame a question ("summarise the discussion about…") rather than name its subject. */
const QUESTION_WORDS = new Set(
  ['summarize', 'summarise', 'summary', 'discuss', 'discussion', 'talk', 'mention', 'meet', 'meeting', 'group', 'team', 'describe', 'explain', 'opinion', 'think', 'view', 'decide', 'decision', 'reason', 'whole', 'part'].map(
    (w) => contentTerms(w)[0] ?? w,
  ),
);

/**
 * A custom question, answered by retrieval: passages (up to three sentences of a turn) ranked by
 * BM25 against the question, named speakers' own words first. A passage is quoted from its first
 * statement that addresses the question; one that only asks it is answered by the reply that follows
 * it, which is what the answer quotes.
 */
function answerQuestion(c: Context, question: string): Minutes {
  const { a, budget } = c;
  const query = [...new Set(contentTerms(question))].filter((t) => !QUESTION_WORDS.has(t));
  if (query.length === 0) {
    return { blocks: [paragraph({ text: 'The question has no words to look for in the transcript; please rephrase it.', lines: [] })] };
  }
  const passages: { ids: number[]; terms: string[] }[] = [];
  for (let i = 0; i < a.sentences.length; i++) {
    const ids = [i];
    for (let j = i + 1; j < a.sentences.length && ids.length < 3 && a.sentences[j]!.turn === a.sentences[i]!.turn; j++) ids.push(j);
    // Fragments ("To discuss it.") cannot answer anything on their own.
    if (ids.reduce((w, id) => w + a.sentences[id]!.words, 0) < 8) continue;
    passages.push({ ids, terms: ids.flatMap((id) => a.sentences[id]!.terms) });
  }
  if (passages.length === 0) return { blocks: [paragraph({ text: 'The meeting is too short to answer questions about it.', lines: [] })] };
  const avg = passages.reduce((s, p) => s + p.terms.length, 0) / passages.length || 1;
  const df = new Map<string, number>();
  for (const p of passages) for (const t of new Set(p.terms)) df.set(t, (df.get(t) ?? 0) + 1);
  const k1 = 1.2;
  const b = 0.75;
  const scores = passages.map((p) => {
    let score = 0;
    for (const q of query) {
      const f = p.terms.filter((t) => t === q).length;
      if (f === 0) continue;
      const n = df.get(q) ?? 0;
      const idf = Math.log(1 + (passages.length - n + 0.5) / (n + 0.5));
      score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * p.terms.length) / avg));
    }
    return score;
  });
  // A question about someone ("What did David Hopkins think…") is answered by their own words first.
  const named = a.speakers.filter((sp) => {
    const parts = sp.toLowerCase().split(/\s+/).filter((w) => w.length > 2 && !['am', 'mp', 'dr', 'mr', 'mrs', 'ms'].includes(w));
    const q = question.toLowerCase();
    return parts.length > 0 && (q.includes(sp.toLowerCase()) || parts.filter((w) => q.includes(w)).length >= Math.min(2, parts.length));
  });
  passages.forEach((p, i) => {
    if (named.includes(a.sentences[p.ids[0]!]!.speaker)) scores[i] = (scores[i]! + 0.5) * 2;
  });
  const norm = normalise(scores);
  const order = passages
    .map((p, i) => ({ p, score: scores[i]!, rank: norm[i]! + 0.15 * a.centrality[p.ids[0]!]! }))
    .filter((x) => x.score > 0);
  if (order.length === 0) {
    return { blocks: [paragraph({ text: `The meeting does not seem to discuss this: no passage mentions ${joinNames(query.slice(0, 5))}.`, lines: [] })] };
  }
  order.sort((x, y) => y.rank - x.rank);
  /** The sentences that answer a passage: the passage itself, or for a question the next speaker's reply. */
  const answerOf = (ids: number[]): Sentence[] => {
    const first = a.sentences[ids[0]!]!;
    const sentences = ids.map((id) => a.sentences[id]!);
    const addresses = (x: Sentence) => x.terms.some((t) => query.includes(t));
    // From the first statement about the question on; an aside around it ("That was fun.") is no answer.
    const from = sentences.findIndex((x) => !x.question && addresses(x));
    const statements = from < 0 ? [] : sentences.slice(from).filter((x, k) => !x.question && (k === 0 || addresses(x) || isInformative(x)));
    if (statements.length > 0) return statements;
    if (sentences.some((x) => !x.question && isInformative(x)) && !sentences.some((x) => x.question && addresses(x))) {
      return sentences.filter((x) => !x.question && isInformative(x));
    }
    const replyTurn = a.sentences.find((s) => s.turn > first.turn && s.speaker !== first.speaker && isInformative(s));
    if (!replyTurn) return [];
    return a.sentences.filter((s) => s.turn === replyTurn.turn && !s.question).slice(0, 2);
  };
  const used = new Set<number>();
  const items: MinutesItem[] = [];
  let words = 0;
  const wordLimit = budget.maxWords > 0 ? budget.maxWords : Math.max(120, budget.minWords);
  const chosen: { at: number; item: MinutesItem }[] = [];
  for (const o of order) {
    const answer = answerOf(o.p.ids).filter((s) => !used.has(s.id) && s.words >= 3);
    if (answer.length === 0) continue;
    const text = answer.map((s) => noteOf(c, s)).join(' ');
    const w = wordCount(text) + (c.document ? 0 : wordCount(answer[0]!.speaker));
    if (chosen.length > 0 && words + w > wordLimit) continue;
    answer.forEach((s) => used.add(s.id));
    chosen.push({ at: answer[0]!.id, item: { lead: c.document ? undefined : answer[0]!.speaker, text, lines: answer.map((s) => s.line) } });
    words += w;
    if (chosen.length >= 6 || words >= wordLimit) break;
  }
  chosen.sort((x, y) => x.at - y.at);
  items.push(...chosen.map((x) => x.item));
  if (items.length === 0) return { blocks: [paragraph({ text: 'No passage of the meeting answers this question.', lines: [] })] };
  return { blocks: [list(items)] };
}

/** The commonest English words: in English speech about one word in three is one of them. */
const ENGLISH_MARKERS = new Set(['the', 'and', 'to', 'of', 'a', 'is', 'it', 'that', 'we', 'i', 'you', 'in', 'this', 'for', 'be', 'have', 'are', 'not', 'with', 'so']);

/** Whether the meeting reads as English (the language of the engine's model, cue phrases and sentiment lexicon). */
function readsAsEnglish(a: Analysis): boolean {
  let seen = 0;
  let english = 0;
  for (const s of a.sentences) {
    for (const w of s.text.toLowerCase().split(/[^\p{L}']+/u)) {
      if (!w) continue;
      seen++;
      if (ENGLISH_MARKERS.has(w)) english++;
    }
    if (seen > 3000) break;
  }
  return seen > 0 && english / seen >= 0.12;
}

const OTHER_LANGUAGE =
  'This meeting does not seem to be in English. The offline engine reads English: here it quotes lines without rewriting them, and it finds no decisions, actions or sentiment. An AI model (docs/ai.md) writes notes in other languages.';

/**
 * A meeting in another language: its answer as the engine finds it, or, where that is empty, its most
 * central lines as they were said (each cited), after a note saying why.
 */
function otherLanguage(c: Context, promptKey: PromptKey, answer: Minutes): Minutes {
  const notice = paragraph({ text: OTHER_LANGUAGE, lines: [] });
  // Cue phrases and the sentiment lexicon are English: their answers would be empty or wrong.
  const summarising = ['summary', 'c_summary', 'topic', 'purpose', 'goal'].includes(promptKey);
  const hasNotes = answer.blocks.some((b) => b.kind === 'list' || (b.kind === 'paragraph' && b.item.lines.length > 0));
  if (summarising && hasNotes && c.a.sentences.some(isInformative)) return { blocks: [notice, ...answer.blocks] };
  const order = [...c.a.sentences].sort((x, y) => y.words * (1 + c.a.centrality[y.id]!) - x.words * (1 + c.a.centrality[x.id]!));
  const quoted = order.slice(0, 8).sort((x, y) => x.id - y.id);
  return { blocks: [notice, list(quoted.map((s) => ({ lead: s.speaker, text: s.text, lines: [s.line] })))] };
}

/** The offline engine's answer as structured minutes: notes with the transcript lines they came from. */
export function offlineMinutes(request: OfflineRequest): Minutes {
  const a = analyse(request.transcript);
  if (a.sentences.length === 0) return emptyAnswer();
  const answer = answerFor(a, request);
  return readsAsEnglish(a) ? answer : otherLanguage(contextOf(a, request), request.promptKey, answer);
}

function contextOf(a: Analysis, request: OfflineRequest): Context {
  const settings = request.promptKey === 'c_summary' ? { ...request.settings, depth: 'deep' as const } : request.settings;
  const names = new Set(a.speakers.flatMap((sp) => sp.toLowerCase().split(/\s+/)));
  const start = a.turns.find((t) => t.spokenAt !== undefined)?.spokenAt;
  return {
    a,
    budget: lengthBudget(PROMPTS[request.promptKey].shape, settings),
    variant: request.variant ?? 0,
    document: request.material === 'document',
    clock: { start, timeZone: request.timeZone },
    names,
  };
}

function answerFor(a: Analysis, request: OfflineRequest): Minutes {
  const settings = request.promptKey === 'c_summary' ? { ...request.settings, depth: 'deep' as const } : request.settings;
  const c = contextOf(a, request);
  switch (request.promptKey) {
    case 'summary':
    case 'c_summary':
      return summaryForDepth(c, settings);
    case 'goal':
      return goals(c);
    case 'topic':
      return topics(c);
    case 'purpose':
      return purpose(c);
    case 'decision':
      return decisions(c);
    case 'action':
      return actions(c);
    case 'next':
      return nextSteps(c);
    case 'issue':
      return issues(c);
    case 'missing':
      return missingInformation(c);
    case 'sentiment':
      return sentimentReading(c);
    case 'custom':
      return answerQuestion(c, request.customPrompt ?? '');
  }
}

/** The offline engine: notes for every prompt type, as HTML citing their lines (documents: no citations). */
export function generateOffline(request: OfflineRequest): CitedHtml {
  return renderMinutes(offlineMinutes(request), { cite: request.material !== 'document' });
}

