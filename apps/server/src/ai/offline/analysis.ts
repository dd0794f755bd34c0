import { centroid, cosine, inverseDocumentFrequency, normalise, textRank, tfidfVector, type SparseVector } from './rank.js';
import { prepareTranscript, type PreparedTranscript, type Sentence } from './text.js';
import type { TranscriptTurn } from '../types.js';

export interface Analysis extends PreparedTranscript {
  vectors: SparseVector[];
  idf: Map<string, number>;
  /** 0..1 per sentence: how central it is to the meeting (TextRank + closeness to the centroid). */
  centrality: number[];
  meetingCentroid: SparseVector;
}

/** A sentence worth quoting: enough words and enough content to stand on its own. */
export function isInformative(s: Sentence): boolean {
  return s.words >= 6 && s.terms.length >= 3;
}

export function analyse(transcript: readonly TranscriptTurn[]): Analysis {
  const prepared = prepareTranscript(transcript);
  const idf = inverseDocumentFrequency(prepared.sentences.map((s) => s.terms));
  const vectors = prepared.sentences.map((s) => tfidfVector(s.terms, idf));
  const meetingCentroid = centroid(vectors.filter((_, i) => isInformative(prepared.sentences[i]!)));
  // The graph only holds informative sentences: backchannel ("Yeah, okay.") would dilute it.
  const graphIds = prepared.sentences.filter(isInformative).map((s) => s.id);
  const ranks = textRank(graphIds.map((id) => vectors[id]!));
  const tr = new Array<number>(prepared.sentences.length).fill(0);
  graphIds.forEach((id, k) => (tr[id] = ranks[k]!));
  const trNorm = normalise(tr);
  const cen = normalise(vectors.map((v) => cosine(v, meetingCentroid)));
  const centrality = prepared.sentences.map((s, i) => {
    if (!isInformative(s)) return 0;
    // Very long sentences win TextRank by sheer vocabulary; damp them a little.
    const lengthFactor = s.words > 45 ? 45 / s.words : 1;
    return (0.5 * trNorm[i]! + 0.5 * cen[i]!) * (0.7 + 0.3 * lengthFactor);
  });
  return { ...prepared, vectors, idf, centrality, meetingCentroid };
}
