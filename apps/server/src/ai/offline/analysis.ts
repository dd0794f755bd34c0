import { centroid, cosine, inverseDocumentFrequency, normalise, textRank, tfidfVector, type SparseVector } from './rank.js';
import { prepareTranscript, type PreparedTranscript, type Sentence } from './text.js';
import type { TranscriptTurn } from '../types.js';

export interface Analysis extends PreparedTranscript {
  vectors: SparseVector[];
  idf: Map<string, number>;
  /** 0..1 per sentence: how central it is to the meeting (TextRank + closeness to the centroid). */
  centrality: number[];
  /** TextRank per sentence, 0 for those outside the graph. */
  textRank: number[];
  meetingCentroid: SparseVector;
}

/** A sentence worth quoting: enough words and enough content to stand on its own. */
export function isInformative(s: Sentence): boolean {
  return s.words >= 6 && s.terms.length >= 3;
}

/**
 * Most sentences the TextRank graph holds. It compares every pair, so its time and memory grow with
 * the square of its size: 1,500 sentences take 9 MB and well under a second
 * (docs/ai.md, "Long meetings").
 */
export const GRAPH_LIMIT = 1500;

/** Consecutive sections a long meeting is cut into for the graph, each sending its share of candidates. */
const GRAPH_SECTIONS = 30;

/**
 * The informative sentences the graph compares. All of them up to GRAPH_LIMIT; beyond, the most
 * central of each section of the meeting. Central means close to the meeting's centroid: a
 * sentence's summed similarity to all others (its weighted degree, the first step of TextRank) is
 * its dot product with the sum of all vectors, i.e. proportional to its cosine to the centroid, so
 * this keeps the sentences TextRank would rank high, in linear time. Per section, so every part of a
 * long meeting keeps its voice in the summary rather than its most repeated vocabulary winning all.
 */
export function graphCandidates(informative: readonly number[], closeness: readonly number[], limit = GRAPH_LIMIT): number[] {
  if (informative.length <= limit) return [...informative];
  const chosen: number[] = [];
  for (let k = 0; k < GRAPH_SECTIONS; k++) {
    const section = informative.slice(
      Math.floor((k * informative.length) / GRAPH_SECTIONS),
      Math.floor(((k + 1) * informative.length) / GRAPH_SECTIONS),
    );
    const quota = Math.floor(((k + 1) * limit) / GRAPH_SECTIONS) - Math.floor((k * limit) / GRAPH_SECTIONS);
    chosen.push(...[...section].sort((a, b) => closeness[b]! - closeness[a]! || a - b).slice(0, quota));
  }
  return chosen.sort((a, b) => a - b);
}

export function analyse(transcript: readonly TranscriptTurn[]): Analysis {
  const prepared = prepareTranscript(transcript);
  const idf = inverseDocumentFrequency(prepared.sentences.map((s) => s.terms));
  const vectors = prepared.sentences.map((s) => tfidfVector(s.terms, idf));
  // The graph only holds informative sentences: backchannel ("Yeah, okay.") would dilute it.
  const informative = prepared.sentences.filter(isInformative).map((s) => s.id);
  const meetingCentroid = centroid(informative.map((id) => vectors[id]!));
  const closeness = vectors.map((v) => cosine(v, meetingCentroid));
  const graphIds = graphCandidates(informative, closeness);
  const ranks = textRank(graphIds.map((id) => vectors[id]!));
  // Sentences left out of a long meeting's graph keep a TextRank of 0: their section had GRAPH_LIMIT /
  // GRAPH_SECTIONS more central ones, and only their closeness to the centroid counts.
  const tr = new Array<number>(prepared.sentences.length).fill(0);
  graphIds.forEach((id, k) => (tr[id] = ranks[k]!));
  const trNorm = normalise(tr);
  const cen = normalise(closeness);
  const centrality = prepared.sentences.map((s, i) => {
    if (!isInformative(s)) return 0;
    // Very long sentences win TextRank by sheer vocabulary; damp them a little.
    const lengthFactor = s.words > 45 ? 45 / s.words : 1;
    return (0.5 * trNorm[i]! + 0.5 * cen[i]!) * (0.7 + 0.3 * lengthFactor);
  });
  return { ...prepared, vectors, idf, centrality, textRank: tr, meetingCentroid };
}
