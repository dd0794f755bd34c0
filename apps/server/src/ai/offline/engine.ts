import type Sentiment from 'sentiment';
import { PROMPTS, type PromptKey, type SummarySettings } from '@mbox/shared';
import { lazyRequire } from '../../lazy-require.js';
import { lengthBudget, type LengthBudget } from '../length.js';
import type { TranscriptTurn } from '../types.js';
import { analyse, isInformative, type Analysis } from './analysis.js';
import {
  ACTION_CUES,
  AGREEMENT,
  DECISION_CUES,
  GOAL_CUES,
  ISSUE_CUES,
  MISSING_CUES,
  NEXT_CUES,
  NON_ANSWER,
  cueScore,
  type Cue,
} from './cues.js';
import { centroid, cosine, keyPhrases, normalise, segmentTopics, selectDiverse, type RankedSentence } from './rank.js';
import { contentTerms, escapeHtml, joinNames, wordCount, type Sentence } from './text.js';

/** The AFINN word list behind the sentiment reading loads with the first summary, not at start-up. */
const sentiment = lazyRequire<typeof Sentiment>('sentiment');

export interface OfflineRequest {
  transcript: readonly TranscriptTurn[];
  promptKey: PromptKey;
  settings: SummarySettings;
  customPrompt?: string;
}

const item = (s: Sentence, withSpeaker = true) =>
  `<li>${withSpeaker ? `<b>${escapeHtml(s.speaker)}:</b> ` : ''}${escapeHtml(s.text)}</li>`;

const chronological = (a: RankedSentence, b: RankedSentence) => a.sentence.id - b.sentence.id;

function htmlWords(html: string): number {
  return wordCount(html.replace(/<[^>]+>/g, ' ').replace(/&\w+;/g, ' '));
}

/** Drops the weakest items until the rendered answer fits the word limit. */
function fitToMax(items: RankedSentence[], render: (items: RankedSentence[]) => string, maxWords: number): string {
  let kept = [...items];
  let html = render(kept);
  while (maxWords > 0 && kept.length > 1 && htmlWords(html) > maxWords) {
    const weakest = kept.reduce((w, c) => (c.score < w.score ? c : w));
    kept = kept.filter((k) => k !== weakest);
    html = render(kept);
  }
  return html;
}

function ranked(a: Analysis, filter: (s: Sentence) => boolean = isInformative): RankedSentence[] {
  return a.sentences.filter(filter).map((s) => ({
    sentence: s,
    // Questions ask rather than state; summaries read better built from statements. Meetings set
    // out their agenda first, so the opening gets a mild boost (measured on QMSum: +0.7 ROUGE-1, +1.2 ROUGE-L).
    score: a.centrality[s.id]! * (s.question ? 0.6 : 1) * (1 + 0.3 * Math.max(0, 1 - s.position / 0.15)),
    vector: a.vectors[s.id]!,
  }));
}

function speakersPhrase(a: Analysis): string {
  if (a.speakers.length <= 4) return joinNames(a.speakers);
  return `${a.speakers.length} participants, mainly ${joinNames(a.speakers.slice(0, 3))}`;
}

/** One-sentence overview: who met and the key phrases of the meeting. */
function overviewSentence(a: Analysis): string {
  const topics = keyPhrases(a.sentences, [], 4);
  const about = topics.length > 0 ? joinNames(topics) : 'the points below';
  return `${speakersPhrase(a)} discussed ${about}.`;
}

function emptyMeeting(): string {
  return '<p>The transcript has no usable text to summarise yet.</p>';
}

function summarise(a: Analysis, budget: LengthBudget): string {
  const intro = `<p>${escapeHtml(overviewSentence(a))}</p>`;
  const introWords = htmlWords(intro);
  const chosen = selectDiverse(ranked(a), {
    minWords: Math.max(20, budget.minWords - introWords),
    maxWords: budget.maxWords > 0 ? budget.maxWords - introWords : 0,
  }).sort(chronological);
  const render = (items: RankedSentence[]) => `${intro}<ul>${items.map((r) => item(r.sentence)).join('')}</ul>`;
  return fitToMax(chosen, render, budget.maxWords);
}

function topicCount(a: Analysis): number {
  return Math.max(2, Math.min(8, Math.round(a.totalWords / 700)));
}

function segments(a: Analysis): Sentence[][] {
  return segmentTopics(a.sentences, a.vectors, topicCount(a)).map((ids) => ids.map((id) => a.sentences[id]!));
}

function deepSummary(a: Analysis, budget: LengthBudget): string {
  const intro = `<p>${escapeHtml(overviewSentence(a))}</p>`;
  const parts = segments(a);
  const total = parts.reduce((sum, p) => sum + p.reduce((w, s) => w + s.words, 0), 0) || 1;
  const target = Math.max(60, budget.minWords - htmlWords(intro));
  const sections: { heading: string; items: RankedSentence[] }[] = [];
  parts.forEach((part, k) => {
    const share = part.reduce((w, s) => w + s.words, 0) / total;
    const local = centroid(part.map((s) => a.vectors[s.id]!));
    const pool = part.filter(isInformative).map((s) => ({
      sentence: s,
      score: (0.5 * a.centrality[s.id]! + 0.5 * cosine(a.vectors[s.id]!, local)) * (s.question ? 0.6 : 1),
      vector: a.vectors[s.id]!,
    }));
    const items = selectDiverse(pool, { minWords: Math.max(15, target * share), maxWords: 0 }).sort(chronological);
    if (items.length === 0) return;
    const others = parts.filter((_, j) => j !== k);
    const phrases = keyPhrases(part, others, 3);
    sections.push({ heading: phrases.length > 0 ? capitaliseFirst(joinNames(phrases)) : `Part ${k + 1}`, items });
  });
  const render = (kept: RankedSentence[]) =>
    intro +
    sections
      .map((sec) => ({ ...sec, items: sec.items.filter((i) => kept.includes(i)) }))
      .filter((sec) => sec.items.length > 0)
      .map((sec) => `<h3>${escapeHtml(sec.heading)}</h3><ul>${sec.items.map((r) => item(r.sentence)).join('')}</ul>`)
      .join('');
  return fitToMax(
    sections.flatMap((s) => s.items),
    render,
    budget.maxWords,
  );
}

function capitaliseFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function bySpeaker(a: Analysis, budget: LengthBudget): string {
  const target = Math.max(40, budget.minWords);
  const spoken = new Map<string, number>();
  for (const s of a.sentences) spoken.set(s.speaker, (spoken.get(s.speaker) ?? 0) + s.words);
  const groups: { speaker: string; items: RankedSentence[] }[] = [];
  for (const speaker of a.speakers) {
    const share = (spoken.get(speaker) ?? 0) / Math.max(1, a.totalWords);
    const pool = ranked(a, (s) => s.speaker === speaker && isInformative(s));
    if (pool.length === 0) continue;
    // Everyone who said something substantial gets at least one line.
    const items = selectDiverse(pool, { minWords: Math.max(8, target * share), maxWords: 0 }).sort(chronological);
    groups.push({ speaker, items });
  }
  const render = (kept: RankedSentence[]) =>
    groups
      .map((g) => ({ ...g, items: g.items.filter((i) => kept.includes(i)) }))
      .filter((g) => g.items.length > 0)
      .map((g) => `<h3>${escapeHtml(g.speaker)}</h3><ul>${g.items.map((r) => item(r.sentence, false)).join('')}</ul>`)
      .join('');
  return fitToMax(
    groups.flatMap((g) => g.items),
    render,
    budget.maxWords,
  );
}

function summaryForDepth(a: Analysis, settings: SummarySettings, budget: LengthBudget): string {
  if (settings.depth === 'speaker') return bySpeaker(a, budget);
  if (settings.depth === 'deep') return deepSummary(a, budget);
  return summarise(a, budget);
}

interface CueOptions {
  cues: readonly Cue[];
  /** Extra weight from the context of the sentence (position, replies). */
  boost?: (s: Sentence) => number;
  filter?: (s: Sentence) => boolean;
  empty: string;
  owner?: (s: Sentence) => string;
}

/** Ranks sentences by cue phrases times centrality, keeps the best distinct ones in spoken order. */
function extractByCues(a: Analysis, budget: LengthBudget, options: CueOptions): string {
  const pool: RankedSentence[] = [];
  for (const s of a.sentences) {
    // Short statements ("Let's go with Lenovo.") can carry a whole decision: a lower bar than summaries.
    if (s.words < 5 || s.terms.length < 2 || (options.filter && !options.filter(s))) continue;
    const cue = cueScore(s.text, options.cues) + (options.boost?.(s) ?? 0);
    if (cue < 1.5) continue;
    pool.push({ sentence: s, score: cue * (0.35 + a.centrality[s.id]!), vector: a.vectors[s.id]! });
  }
  if (pool.length === 0) return `<p>${escapeHtml(options.empty)}</p>`;
  const chosen = selectDiverse(pool, {
    minWords: Number.POSITIVE_INFINITY,
    maxWords: budget.maxWords,
    maxItems: budget.maxItems,
    lambda: 0.85,
    redundancy: 0.4,
  }).sort(chronological);
  const render = (items: RankedSentence[]) =>
    `<ul>${items
      .map((r) =>
        options.owner
          ? `<li><b>${escapeHtml(options.owner(r.sentence))}:</b> ${escapeHtml(r.sentence.text)}</li>`
          : item(r.sentence),
      )
      .join('')}</ul>`;
  return fitToMax(chosen, render, budget.maxWords);
}

function nextTurnOf(a: Analysis, s: Sentence, offset = 1): { speaker: string; text: string } | undefined {
  const t = a.turns[s.turn + offset];
  return t && t.speaker !== s.speaker ? t : undefined;
}

function decisions(a: Analysis, budget: LengthBudget): string {
  return extractByCues(a, budget, {
    cues: DECISION_CUES,
    // A proposal at the end of a turn that the next speaker accepts reads as a decision.
    boost: (s) => {
      const reply = nextTurnOf(a, s);
      const lastOfTurn = a.sentences[s.id + 1]?.turn !== s.turn;
      return reply && lastOfTurn && AGREEMENT.test(reply.text.trim()) ? 1 : 0;
    },
    filter: (s) => !s.question,
    empty: 'No explicit decision was recorded in this meeting.',
  });
}

function actions(a: Analysis, budget: LengthBudget): string {
  return extractByCues(a, budget, {
    cues: ACTION_CUES,
    boost: (s) => (s.position > 0.6 ? 0.5 : 0),
    filter: (s) => !/^(?:I|we) (?:think|guess|mean)\b/i.test(s.text),
    empty: 'No action items were assigned in this meeting.',
    owner: (s) => {
      if (/\bI(?:'ll| will| am going to|'m going to|'m gonna)\b/i.test(s.text)) return s.speaker;
      if (/\b(?:can|could) you\b|\byou(?:'ll| will)\b/i.test(s.text)) return nextTurnOf(a, s)?.speaker ?? 'Unassigned';
      if (/\bwe(?:'ll| will| need to| have to)\b/i.test(s.text)) return 'Team';
      return 'Unassigned';
    },
  });
}

function nextSteps(a: Analysis, budget: LengthBudget): string {
  return extractByCues(a, budget, {
    cues: NEXT_CUES,
    // Next steps are mostly agreed near the end of a meeting.
    boost: (s) => (s.position > 0.75 ? 1 : s.position > 0.5 ? 0.5 : 0),
    empty: 'No next step was named in this meeting.',
  });
}

function issues(a: Analysis, budget: LengthBudget): string {
  return extractByCues(a, budget, {
    cues: ISSUE_CUES,
    boost: (s) => {
      const reply = nextTurnOf(a, s);
      return s.question && (!reply || NON_ANSWER.test(reply.text)) ? 1.5 : 0;
    },
    empty: 'No unresolved issue came up in this meeting.',
  });
}

function missingInformation(a: Analysis, budget: LengthBudget): string {
  return extractByCues(a, budget, {
    cues: MISSING_CUES,
    // A question whose reply is short or a "don't know" is information the meeting lacked.
    boost: (s) => {
      if (!s.question) return 0;
      const reply = nextTurnOf(a, s);
      if (!reply) return 1.5;
      if (NON_ANSWER.test(reply.text)) return 2.5;
      return wordCount(reply.text) < 6 ? 1.5 : 0.5;
    },
    empty: 'No missing information stood out in this meeting.',
  });
}

function goals(a: Analysis, budget: LengthBudget): string {
  const html = extractByCues(a, { ...budget, maxItems: Math.min(budget.maxItems, 5) }, {
    cues: GOAL_CUES,
    // Goals are usually set out at the start.
    boost: (s) => (s.position < 0.15 ? 1.5 : s.position < 0.35 ? 0.5 : 0),
    empty: 'No goal was stated explicitly.',
  });
  return `<p>${escapeHtml(overviewSentence(a))}</p>${html}`;
}

function topics(a: Analysis, budget: LengthBudget): string {
  const parts = segments(a);
  const list = parts.map((part, k) => {
    const phrases = keyPhrases(part, parts.filter((_, j) => j !== k), 3);
    const local = centroid(part.map((s) => a.vectors[s.id]!));
    const best = part
      .filter(isInformative)
      .filter((s) => !s.question)
      .sort((x, y) => cosine(a.vectors[y.id]!, local) + a.centrality[y.id]! - (cosine(a.vectors[x.id]!, local) + a.centrality[x.id]!))[0];
    const title = phrases.length > 0 ? capitaliseFirst(joinNames(phrases)) : `Part ${k + 1}`;
    const detail = best ? ` — ${escapeHtml(best.speaker)}: ${escapeHtml(best.text)}` : '';
    return { html: `<li><b>${escapeHtml(title)}</b>${detail}</li>`, score: part.length };
  });
  let kept = list.slice(0, budget.maxItems);
  const render = () => `<ol>${kept.map((l) => l.html).join('')}</ol>`;
  while (budget.maxWords > 0 && kept.length > 1 && htmlWords(render()) > budget.maxWords) {
    const smallest = kept.reduce((w, c) => (c.score < w.score ? c : w));
    kept = kept.filter((k) => k !== smallest);
  }
  return render();
}

function purpose(a: Analysis): string {
  return `<p>${escapeHtml(overviewSentence(a))}</p>`;
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

function sentimentReading(a: Analysis): string {
  const analyser = new (sentiment())();
  const perSpeaker = new Map<string, { score: number; words: number; pos: number; neg: number; best?: [number, Sentence]; worst?: [number, Sentence] }>();
  let total = { score: 0, words: 0, pos: 0, neg: 0 };
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
    total = { score: total.score + r.score, words: total.words + s.words, pos: total.pos + r.positive.length, neg: total.neg + r.negative.length };
    scored.push({ s, score: r.score });
  }
  const overallRate = (100 * total.score) / Math.max(1, total.words);
  const overall = label(overallRate, total.pos, total.neg);
  const rows = a.speakers
    .map((speaker) => {
      const e = perSpeaker.get(speaker)!;
      const rate = (100 * e.score) / Math.max(1, e.words);
      const l = label(rate, e.pos, e.neg);
      const example = l === 'Negative' ? e.worst ?? e.best : e.best ?? e.worst;
      const quote = example ? ` — e.g. “${escapeHtml(example[1].text)}”` : '';
      return `<li><b>${escapeHtml(speaker)}:</b> ${l} (${e.pos} positive, ${e.neg} negative expressions)${quote}</li>`;
    })
    .join('');
  const tense = scored
    .filter((x) => x.score <= -3 && x.s.words >= 5)
    .sort((x, y) => x.score - y.score)
    .slice(0, 3)
    .sort((x, y) => x.s.id - y.s.id);
  const tension =
    tense.length > 0
      ? `<p><b>Moments of tension:</b></p><ul>${tense.map((x) => item(x.s)).join('')}</ul>`
      : '<p>No moment of marked tension was found.</p>';
  return (
    `<p><b>Overall tone:</b> ${overall} (${total.pos} positive and ${total.neg} negative expressions over ${total.words} words).</p>` +
    `<ul>${rows}</ul>${tension}`
  );
}

/** Words that frame a question ("summarise the discussion about…") rather than name its subject. */
const QUESTION_WORDS = new Set(
  ['summarize', 'summarise', 'summary', 'discuss', 'discussion', 'talk', 'mention', 'meet', 'meeting', 'group', 'team', 'describe', 'explain', 'opinion', 'think', 'view', 'decide', 'decision', 'reason', 'whole', 'part'].map((w) => contentTerms(w)[0] ?? w),
);

/** Answers a question by retrieving the passages that best match it (BM25 over sentence windows). */
function answerQuestion(a: Analysis, question: string, budget: LengthBudget): string {
  const query = [...new Set(contentTerms(question))].filter((t) => !QUESTION_WORDS.has(t));
  const heading = `<p>Passages of the meeting most relevant to “${escapeHtml(question.trim())}”:</p>`;
  if (query.length === 0) {
    return '<p>The question has no words to look for in the transcript; please rephrase it.</p>';
  }
  // Passages of up to three sentences of one turn, so an answer keeps its context.
  const passages: { ids: number[]; terms: string[] }[] = [];
  for (let i = 0; i < a.sentences.length; i++) {
    const ids = [i];
    for (let j = i + 1; j < a.sentences.length && ids.length < 3 && a.sentences[j]!.turn === a.sentences[i]!.turn; j++) ids.push(j);
    // Fragments ("To discuss it.") cannot answer anything on their own.
    if (ids.reduce((w, id) => w + a.sentences[id]!.words, 0) < 8) continue;
    passages.push({ ids, terms: ids.flatMap((id) => a.sentences[id]!.terms) });
  }
  if (passages.length === 0) return '<p>The meeting is too short to answer questions about it.</p>';
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
  const order = passages.map((p, i) => ({ p, score: scores[i]!, rank: norm[i]! + 0.15 * a.centrality[p.ids[0]!]! })).filter((x) => x.score > 0);
  if (order.length === 0) {
    return `<p>The meeting does not seem to discuss this: no passage mentions ${escapeHtml(joinNames(query.slice(0, 5)))}.</p>`;
  }
  order.sort((x, y) => y.rank - x.rank);
  const used = new Set<number>();
  const chosen: typeof order = [];
  let words = 0;
  const wordLimit = budget.maxWords > 0 ? budget.maxWords : Math.max(120, budget.minWords);
  for (const o of order) {
    if (o.p.ids.some((id) => used.has(id))) continue;
    const w = o.p.ids.reduce((s, id) => s + a.sentences[id]!.words, 0);
    if (chosen.length > 0 && words + w > wordLimit) continue;
    chosen.push(o);
    o.p.ids.forEach((id) => used.add(id));
    words += w;
    if (chosen.length >= 6 || words >= wordLimit) break;
  }
  chosen.sort((x, y) => x.p.ids[0]! - y.p.ids[0]!);
  const list = chosen
    .map((o) => {
      const first = a.sentences[o.p.ids[0]!]!;
      return `<li><b>${escapeHtml(first.speaker)}:</b> ${escapeHtml(o.p.ids.map((id) => a.sentences[id]!.text).join(' '))}</li>`;
    })
    .join('');
  return `${heading}<ul>${list}</ul>`;
}

/** The offline engine: extractive and rule-based answers for every prompt type, as HTML. */
export function generateOffline(request: OfflineRequest): string {
  const a = analyse(request.transcript);
  if (a.sentences.length === 0) return emptyMeeting();
  const settings = request.promptKey === 'c_summary' ? { ...request.settings, depth: 'deep' as const } : request.settings;
  const budget = lengthBudget(PROMPTS[request.promptKey].shape, settings);
  switch (request.promptKey) {
    case 'summary':
    case 'c_summary':
      return summaryForDepth(a, settings, budget);
    case 'goal':
      return goals(a, budget);
    case 'topic':
      return topics(a, budget);
    case 'purpose':
      return purpose(a);
    case 'decision':
      return decisions(a, budget);
    case 'action':
      return actions(a, budget);
    case 'next':
      return nextSteps(a, budget);
    case 'issue':
      return issues(a, budget);
    case 'missing':
      return missingInformation(a, budget);
    case 'sentiment':
      return sentimentReading(a);
    case 'custom':
      return answerQuestion(a, request.customPrompt ?? '', budget);
  }
}
