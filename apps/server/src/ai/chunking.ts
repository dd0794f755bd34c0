import { splitSentences } from './offline/nlp.js';

/**
 * Splits "Speaker: text" lines into chunks of at most maxTokens, cutting between speaker turns.
 * A turn longer than a chunk is cut between sentences (then between words), and every piece
 * keeps its "Speaker:" prefix so no text loses its attribution.
 */
export function splitLinesIntoChunks(lines: readonly string[], maxTokens: number, count: (text: string) => number): string[] {
  const pieces: string[] = [];
  for (const line of lines) {
    if (count(line) <= maxTokens) {
      pieces.push(line);
      continue;
    }
    const colon = line.indexOf(': ');
    const prefix = colon > 0 ? line.slice(0, colon + 2) : '';
    const body = colon > 0 ? line.slice(colon + 2) : line;
    let current = '';
    const flush = () => {
      if (current) pieces.push(prefix + current);
      current = '';
    };
    const units = splitSentences(body).flatMap((sentence) =>
      count(prefix + sentence) <= maxTokens ? [sentence] : splitWords(sentence, maxTokens - count(prefix) - 1, count),
    );
    for (const unit of units) {
      const candidate = current ? `${current} ${unit}` : unit;
      if (count(prefix + candidate) > maxTokens) {
        flush();
        current = unit;
      } else current = candidate;
    }
    flush();
  }
  const chunks: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const piece of pieces) {
    const t = count(piece) + 1; // +1 for the line break joining pieces
    if (current.length > 0 && tokens + t > maxTokens) {
      chunks.push(current.join('\n'));
      current = [];
      tokens = 0;
    }
    current.push(piece);
    tokens += t;
  }
  if (current.length > 0) chunks.push(current.join('\n'));
  return chunks;
}

function splitWords(sentence: string, maxTokens: number, count: (text: string) => number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of sentence.split(/\s+/)) {
    const candidate = current ? `${current} ${word}` : word;
    if (current && count(candidate) > Math.max(1, maxTokens)) {
      out.push(current);
      current = word;
    } else current = candidate;
  }
  if (current) out.push(current);
  return out;
}

/** Groups consecutive texts so each group, joined, stays within maxTokens (one text per group at least). */
export function groupWithinBudget(texts: readonly string[], maxTokens: number, count: (text: string) => number): string[][] {
  const groups: string[][] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const text of texts) {
    const t = count(text) + 8; // headers and spacing around each text
    if (current.length > 0 && tokens + t > maxTokens) {
      groups.push(current);
      current = [];
      tokens = 0;
    }
    current.push(text);
    tokens += t;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
