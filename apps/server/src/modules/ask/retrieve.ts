import { contentTerms, words } from '../../ai/offline/text.js';

/** A transcript line as retrieval reads it. */
export interface AskLine {
  id: string;
  speaker: string;
  text: string;
  spokenAt: number;
}

/** A line that matches the question, with its BM25 score and the score it gets with its neighbours. */
export interface RankedLine {
  index: number;
  score: number;
  /** The score plus a share of the neighbours' scores: a line inside a relevant passage ranks higher. */
  windowScore: number;
}

// BM25 constants (Robertson's usual values).
const K1 = 1.2;
const B = 0.75;
/** Share of each neighbour's score a line adds to its own. */
const NEIGHBOUR_SHARE = 0.25;
/** Weight of a question's speaker names: who said it narrows a question, it does not answer it. */
const SPEAKER_WEIGHT = 0.6;
/** Weight of the previous question's words in a follow-up that has words of its own. */
const FOLLOW_UP_WEIGHT = 0.3;

/** Words that say what kind of answer is wanted, not what it is about ("tell me more about the budget"). */
const ASKING_WORDS = new Set(
  'tell explain elaborate detail details describe mention mentioned discuss discussed talk talked happen happened summarise summarize summary'.split(' '),
);

/** A word that only asks for a kind of answer: no word to search for. */
export function isAskingWord(word: string): boolean {
  return ASKING_WORDS.has(word.toLowerCase());
}

/** Speaker names are matched as pseudo-terms of every line the speaker said. */
const speakerTerm = (token: string) => `@${token}`;

function nameTokens(name: string): string[] {
  return words(name.toLowerCase()).filter((w) => w.length >= 2);
}

interface QueryTerm {
  weight: number;
  /** A line must match at least one content term to count as an answer (a name alone does not). */
  content: boolean;
}

/**
 * The weighted terms of a question: its stemmed content words, the speakers it names, and — when it
 * follows earlier questions — the last one's words, as a boost (or in full when it has none of its own:
 * "tell me more").
 */
export function queryTerms(question: string, speakers: readonly string[], previous: readonly string[] = []): Map<string, QueryTerm> {
  const speakerTokens = new Set(speakers.flatMap(nameTokens));
  const terms = new Map<string, QueryTerm>();
  const put = (term: string, weight: number, content: boolean) => {
    const known = terms.get(term);
    if (!known || known.weight < weight) terms.set(term, { weight, content: content || (known?.content ?? false) });
  };
  const add = (text: string, weight: number, content: boolean) => {
    for (const word of words(text.toLowerCase())) {
      const bare = word.replace(/['’]s$/, '');
      if (speakerTokens.has(bare)) {
        // A name matches the lines its speaker said and the lines that mention them, but alone it
        // does not answer anything: "Bob" is not what Bob promised.
        put(speakerTerm(bare), SPEAKER_WEIGHT * weight, false);
        for (const term of contentTerms(bare)) put(term, SPEAKER_WEIGHT * weight, false);
      } else if (!isAskingWord(word)) {
        for (const term of contentTerms(word)) put(term, weight, content);
      }
    }
  };
  add(question, 1, true);
  const last = previous.at(-1);
  if (last) {
    const ownWords = [...terms.values()].some((t) => t.content);
    // A follow-up without words of its own ("tell me more about that") asks the previous question again.
    add(last, ownWords ? FOLLOW_UP_WEIGHT : 1, !ownWords);
  }
  return terms;
}

/**
 * BM25 over the lines, each line a document of its stemmed content words plus its speaker's name.
 * Returns the lines that match a content word of the question (or, for a question that only names
 * people — "what did Bob say?" —, their lines), best first.
 */
export function rankLines(lines: readonly AskLine[], question: string, previous: readonly string[] = []): RankedLine[] {
  if (lines.length === 0) return [];
  const speakers = [...new Set(lines.map((l) => l.speaker))];
  const query = queryTerms(question, speakers, previous);
  if (query.size === 0) return [];
  const anyContent = [...query.values()].some((t) => t.content);

  const docs = lines.map((line) => {
    const tf = new Map<string, number>();
    const terms = contentTerms(line.text);
    for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
    for (const token of nameTokens(line.speaker)) tf.set(speakerTerm(token), 1);
    return { tf, length: terms.length };
  });
  const averageLength = Math.max(1, docs.reduce((sum, d) => sum + d.length, 0) / docs.length);
  const idf = new Map<string, number>();
  for (const term of query.keys()) {
    const df = docs.reduce((n, d) => n + (d.tf.has(term) ? 1 : 0), 0);
    idf.set(term, Math.log(1 + (docs.length - df + 0.5) / (df + 0.5)));
  }

  const scores = docs.map((doc) => {
    let score = 0;
    let answers = false;
    for (const [term, { weight, content }] of query) {
      const f = doc.tf.get(term);
      if (!f) continue;
      if (content || !anyContent) answers = true;
      score += weight * idf.get(term)! * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * doc.length) / averageLength)));
    }
    return answers ? score : 0;
  });

  const ranked: RankedLine[] = [];
  scores.forEach((score, index) => {
    if (score <= 0) return;
    const windowScore = score + NEIGHBOUR_SHARE * ((scores[index - 1] ?? 0) + (scores[index + 1] ?? 0));
    ranked.push({ index, score, windowScore });
  });
  // Ties go to the later line: in a running meeting the latest word on a subject is the current one.
  return ranked.sort((a, b) => b.windowScore - a.windowScore || b.index - a.index);
}

/**
 * The lines of windows taken best first, as long as they fit `budget` (each line costs `cost(line)`);
 * a window too large for what is left still sends its hit line. Lines of overlapping windows count once.
 */
export function packWindows<L>(windows: Iterable<{ hit: L; lines: readonly L[] }>, budget: number, cost: (line: L) => number): Set<L> {
  const chosen = new Set<L>();
  let spent = 0;
  const take = (lines: readonly L[]): boolean => {
    const fresh = lines.filter((l) => !chosen.has(l));
    const price = fresh.reduce((sum, l) => sum + cost(l), 0);
    if (spent + price > budget) return false;
    for (const l of fresh) chosen.add(l);
    spent += price;
    return true;
  };
  for (const { hit, lines } of windows) {
    if (!take(lines)) take([hit]);
    if (spent >= budget) break;
  }
  return chosen;
}

/**
 * Line indices to send, in spoken order: the windows (each hit with `radius` lines either side)
 * of the best hits, best first, as long as their lines fit `budget` (each line costs `cost(i)`).
 */
export function selectWindows(
  ranked: readonly RankedLine[],
  lineCount: number,
  options: { radius: number; budget: number; cost: (index: number) => number },
): number[] {
  const windows = ranked.map((hit) => {
    const from = Math.max(0, hit.index - options.radius);
    const to = Math.min(lineCount - 1, hit.index + options.radius);
    return { hit: hit.index, lines: Array.from({ length: to - from + 1 }, (_, k) => from + k) };
  });
  return [...packWindows(windows, options.budget, options.cost)].sort((a, b) => a - b);
}

/** The last lines that fit `budget`, in spoken order: what a question with no match is answered from. */
export function latestWithin(lineCount: number, budget: number, cost: (index: number) => number): number[] {
  const out: number[] = [];
  let spent = 0;
  for (let i = lineCount - 1; i >= 0; i--) {
    spent += cost(i);
    if (spent > budget) break;
    out.push(i);
  }
  return out.reverse();
}
