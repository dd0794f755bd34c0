import { stemmer } from 'stemmer';

/** Lower-cased alphanumeric tokens, Porter-stemmed as in the reference rouge-score package. */
export function rougeTokens(text: string, stem = true): string[] {
  const tokens = text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim().split(/\s+/).filter(Boolean);
  return stem ? tokens.map((t) => (t.length > 3 ? stemmer(t) : t)) : tokens;
}

export interface RougeScore {
  precision: number;
  recall: number;
  f1: number;
}

function score(overlap: number, candidateTotal: number, referenceTotal: number): RougeScore {
  const precision = candidateTotal > 0 ? overlap / candidateTotal : 0;
  const recall = referenceTotal > 0 ? overlap / referenceTotal : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

function ngrams(tokens: readonly string[], n: number): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(' ');
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** ROUGE-N: clipped n-gram overlap between candidate and reference. */
export function rougeN(candidate: readonly string[], reference: readonly string[], n: number): RougeScore {
  const c = ngrams(candidate, n);
  const r = ngrams(reference, n);
  let overlap = 0;
  for (const [gram, count] of c) overlap += Math.min(count, r.get(gram) ?? 0);
  return score(overlap, Math.max(0, candidate.length - n + 1), Math.max(0, reference.length - n + 1));
}

/** Length of the longest common subsequence, in O(n·m) time and O(m) memory. */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      row[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    }
    prev = row;
  }
  return prev[b.length]!;
}

/** ROUGE-L: longest common subsequence over the whole texts. */
export function rougeL(candidate: readonly string[], reference: readonly string[]): RougeScore {
  return score(lcsLength(candidate, reference), candidate.length, reference.length);
}

export function rougeAll(candidateText: string, referenceText: string): { rouge1: RougeScore; rouge2: RougeScore; rougeL: RougeScore } {
  const c = rougeTokens(candidateText);
  const r = rougeTokens(referenceText);
  return { rouge1: rougeN(c, r, 1), rouge2: rougeN(c, r, 2), rougeL: rougeL(c, r) };
}
