import { STOPWORDS, stem, words, type Sentence } from './text.js';

export type SparseVector = Map<string, number>;

/** Inverse document frequency of each term over a set of documents (term lists). */
export function inverseDocumentFrequency(docs: readonly string[][]): Map<string, number> {
  const df = new Map<string, number>();
  for (const doc of docs) for (const t of new Set(doc)) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const [t, n] of df) idf.set(t, Math.log((1 + docs.length) / (1 + n)) + 1);
  return idf;
}

/** Sublinear TF-IDF vector, L2-normalised so a dot product is the cosine. */
export function tfidfVector(terms: readonly string[], idf: ReadonlyMap<string, number>): SparseVector {
  const tf = new Map<string, number>();
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  const v: SparseVector = new Map();
  let norm = 0;
  for (const [t, n] of tf) {
    const w = (1 + Math.log(n)) * (idf.get(t) ?? 1);
    v.set(t, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm) || 1;
  for (const [t, w] of v) v.set(t, w / norm);
  return v;
}

export function cosine(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [t, w] of small) {
    const o = large.get(t);
    if (o !== undefined) dot += w * o;
  }
  return dot;
}

/** Sum of vectors, normalised: the meeting's (or a segment's) centre of gravity. */
export function centroid(vectors: readonly SparseVector[]): SparseVector {
  const c: SparseVector = new Map();
  for (const v of vectors) for (const [t, w] of v) c.set(t, (c.get(t) ?? 0) + w);
  let norm = 0;
  for (const w of c.values()) norm += w * w;
  norm = Math.sqrt(norm) || 1;
  for (const [t, w] of c) c.set(t, w / norm);
  return c;
}

/**
 * TextRank: PageRank over the sentence similarity graph (weighted, damping 0.85). It compares every
 * pair, so callers bound `vectors` (analysis.ts, GRAPH_LIMIT); the weights live in one typed n×n
 * array (n = 1,500: 9 MB) instead of an edge object per similar pair, which near-identical lines
 * (every pair similar) made n² objects.
 */
export function textRank(vectors: readonly SparseVector[], iterations = 40, damping = 0.85): number[] {
  const n = vectors.length;
  if (n === 0) return [];
  const weight = new Float32Array(n * n);
  const outWeight = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const w = cosine(vectors[i]!, vectors[j]!);
      if (w > 0.05) {
        weight[i * n + j] = w;
        weight[j * n + i] = w;
        outWeight[i]! += w;
        outWeight[j]! += w;
      }
    }
  }
  let rank = new Float64Array(n).fill(1 / n);
  const share = new Float64Array(n);
  for (let it = 0; it < iterations; it++) {
    for (let i = 0; i < n; i++) share[i] = outWeight[i]! > 0 ? (damping * rank[i]!) / outWeight[i]! : 0;
    const next = new Float64Array(n).fill((1 - damping) / n);
    // The matrix is symmetric: row `to` holds the weights of the edges into `to`.
    for (let to = 0; to < n; to++) {
      const row = to * n;
      let sum = 0;
      for (let from = 0; from < n; from++) sum += share[from]! * weight[row + from]!;
      next[to]! += sum;
    }
    rank = next;
  }
  return Array.from(rank);
}

/** Scales scores to 0..1. */
export function normalise(scores: readonly number[]): number[] {
  // A loop, not Math.max(...scores): spreading tens of thousands of arguments overflows the stack.
  let max = 0;
  let min = 0;
  for (const s of scores) {
    if (s > max) max = s;
    if (s < min) min = s;
  }
  const span = max - min || 1;
  return scores.map((s) => (s - min) / span);
}

/** Phrase frequencies of spans already counted as "elsewhere", kept while the span lives. */
const spanFrequencies = new WeakMap<readonly Sentence[], Map<string, number>>();

/** A phrase's key for counting: its words lower-cased and stemmed ("Remote Controls" → "remot control"). */
function phraseKey(phrase: string): string {
  return words(phrase)
    .map((w) => stem(w.toLowerCase()))
    .join(' ');
}

/**
 * Key phrases of a span of sentences against the rest: noun phrases (from the part-of-speech tags)
 * weighted by frequency in the span and rarity elsewhere, longer phrases favoured, shown in their most
 * frequent written form (names keep their capitals). Phrases made of `exclude` words (the speakers'
 * names) are left out: a topic is what was discussed, not who spoke. `weight` counts a phrase by the
 * sentence it is in: phrases of central sentences label a span, not those of its chit-chat.
 */
export function keyPhrases(
  span: readonly Sentence[],
  otherSpans: readonly (readonly Sentence[])[],
  limit: number,
  exclude: ReadonlySet<string> = new Set(),
  weight: (s: Sentence) => number = () => 1,
): string[] {
  const surface = new Map<string, Map<string, number>>();
  const weighted = new Map<string, number>();
  const count = (spanSentences: readonly Sentence[], record: boolean) => {
    const freq = new Map<string, number>();
    for (const s of spanSentences) {
      for (const phrase of s.phrases) {
        // Each phrase and, for longer ones, its head ("control" of "remote control") counts.
        const parts = phrase.split(' ');
        const forms = parts.length > 1 ? [phrase, parts.slice(-2).join(' '), parts[parts.length - 1]!] : [phrase];
        for (const form of new Set(forms)) {
          if (form.split(' ').some((w) => exclude.has(w.toLowerCase()))) continue;
          const key = phraseKey(form);
          if (!key || STOPWORDS.has(key)) continue;
          freq.set(key, (freq.get(key) ?? 0) + 1);
          if (record) {
            weighted.set(key, (weighted.get(key) ?? 0) + weight(s));
            const seen = surface.get(key) ?? new Map<string, number>();
            seen.set(form, (seen.get(form) ?? 0) + 1);
            surface.set(key, seen);
          }
        }
      }
    }
    return freq;
  };
  const here = count(span, true);
  const elsewhere = otherSpans.map((o) => {
    // Sections are compared with every other section: each is counted once, not once per section.
    let freq = spanFrequencies.get(o);
    if (!freq) {
      freq = count(o, false);
      spanFrequencies.set(o, freq);
    }
    return freq;
  });
  const docs = elsewhere.length + 1;
  const scored: { key: string; score: number }[] = [];
  // A phrase said once labels a span only when the span is short.
  const least = span.length > 20 ? 2 : 1;
  for (const [key, n] of here) {
    if (n < least) continue;
    const length = key.split(' ').length;
    const df = 1 + elsewhere.filter((f) => (f.get(key) ?? 0) > 0).length;
    const idf = Math.log(1 + docs / df);
    scored.push({ key, score: weighted.get(key)! * idf * (length > 1 ? 1.8 : 1) });
  }
  scored.sort((a, b) => b.score - a.score);
  const chosen: string[] = [];
  for (const { key } of scored) {
    // A phrase inside a chosen one (or the reverse) would repeat it.
    const mine = key.split(' ');
    if (chosen.some((c) => c.split(' ').some((w) => mine.includes(w)))) continue;
    chosen.push(key);
    if (chosen.length >= limit) break;
  }
  return chosen.map((key) => {
    const forms = [...surface.get(key)!.entries()].sort((a, b) => b[1] - a[1]);
    // The lower-case form when there is one: "Budget" at the start of a sentence is the word budget.
    const lower = forms.find(([form]) => form === form.toLowerCase());
    const best = forms[0]![0];
    return lower && best.toLowerCase() === lower[0] && lower[1] * 3 >= forms[0]![1] ? lower[0] : best;
  });
}

/**
 * Topic segmentation in the spirit of TextTiling: compares the vocabulary of a window before and
 * after each turn boundary and cuts at the deepest valleys of similarity.
 */
export function segmentTopics(sentences: readonly Sentence[], vectors: readonly SparseVector[], wanted: number): number[][] {
  const n = sentences.length;
  if (n === 0) return [];
  if (wanted <= 1 || n < 12) return [sentences.map((s) => s.id)];
  const window = Math.max(4, Math.min(25, Math.round(n / (wanted * 3))));
  const gaps: { index: number; sim: number }[] = [];
  for (let i = 1; i < n; i++) {
    if (sentences[i]!.turn === sentences[i - 1]!.turn) continue; // topics change between turns
    const left = centroid(vectors.slice(Math.max(0, i - window), i));
    const right = centroid(vectors.slice(i, Math.min(n, i + window)));
    gaps.push({ index: i, sim: cosine(left, right) });
  }
  if (gaps.length === 0) return [sentences.map((s) => s.id)];
  // Depth of each valley: the peaks reached climbing left and right while similarity does not fall.
  // A climb from gap k that steps onto k − 1 continues exactly as the climb from k − 1 does, so one
  // pass each way finds every peak (a walk per gap is quadratic on long flat stretches).
  const leftPeak = new Float64Array(gaps.length);
  for (let k = 0; k < gaps.length; k++) {
    const sim = gaps[k]!.sim;
    leftPeak[k] = k > 0 && gaps[k - 1]!.sim >= sim ? leftPeak[k - 1]! : sim;
  }
  const rightPeak = new Float64Array(gaps.length);
  for (let k = gaps.length - 1; k >= 0; k--) {
    const sim = gaps[k]!.sim;
    rightPeak[k] = k < gaps.length - 1 && gaps[k + 1]!.sim >= sim ? rightPeak[k + 1]! : sim;
  }
  const depth = gaps.map((g, k) => ({ index: g.index, depth: leftPeak[k]! - g.sim + (rightPeak[k]! - g.sim) }));
  const minSize = Math.max(6, Math.floor(n / (wanted * 2.5)));
  const cuts: number[] = [];
  for (const d of [...depth].sort((a, b) => b.depth - a.depth)) {
    if (cuts.length >= wanted - 1) break;
    if (d.index < minSize || n - d.index < minSize) continue;
    if (cuts.some((c) => Math.abs(c - d.index) < minSize)) continue;
    cuts.push(d.index);
  }
  cuts.sort((a, b) => a - b);
  const segments: number[][] = [];
  let start = 0;
  for (const cut of [...cuts, n]) {
    segments.push(sentences.slice(start, cut).map((s) => s.id));
    start = cut;
  }
  return segments;
}
