import type { TranscriptTurn } from './types.js';

/**
 * A transcript as pages of UTF-8 JSON, built a page at a time while the meeting is read from the
 * database, so a long meeting never sits on the event loop's heap as one array of turns. The pages are
 * handed to the offline engine's worker thread by transfer (their memory moves, nothing is copied);
 * only the worker turns them back into turns (docs/performance.md, "Offline summaries").
 */
export interface PagedTranscript {
  readonly pages: Uint8Array[];
}

/** What a summary is asked for: the turns themselves, or their pages. */
export type TranscriptInput = readonly TranscriptTurn[] | PagedTranscript;

/** What a citation needs of the line it opens (not its text). */
export type CitedTurn = Pick<TranscriptTurn, 'speaker' | 'id' | 'spokenAt'>;

/**
 * One turn of a page: [speaker, text, id, spokenAt], null for an absent id or time; the database writes
 * meeting lines in this shape (readTranscriptInPages), a fifth element after them is not read.
 */
type TurnRow = [string, string, string | null, number | null];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function isPagedTranscript(input: TranscriptInput): input is PagedTranscript {
  return !Array.isArray(input);
}

/**
 * A page as bytes, from its turns or from the JSON text of its rows as the database wrote them; each
 * page has its own ArrayBuffer, so it can be transferred on its own.
 */
export function transcriptPage(turns: readonly TranscriptTurn[] | string): Uint8Array {
  if (typeof turns === 'string') return encoder.encode(turns);
  const rows: TurnRow[] = turns.map((t) => [t.speaker, t.text, t.id ?? null, t.spokenAt ?? null]);
  return encoder.encode(JSON.stringify(rows));
}

/** The turns of a transcript, read from its pages when it has them (blank lines, which say nothing, left out). */
export function transcriptTurns(input: TranscriptInput): readonly TranscriptTurn[] {
  if (!isPagedTranscript(input)) return input;
  const turns: TranscriptTurn[] = [];
  for (const page of input.pages) {
    for (const [speaker, text, id, spokenAt] of JSON.parse(decoder.decode(page)) as TurnRow[]) {
      if (text.trim() === '') continue;
      turns.push({ speaker, text, ...(id === null ? {} : { id }), ...(spokenAt === null ? {} : { spokenAt }) });
    }
  }
  return turns;
}

/** The buffers to transfer with a transcript (none for an array of turns, which is copied). */
export function transferablesOf(input: TranscriptInput): ArrayBuffer[] {
  return isPagedTranscript(input) ? input.pages.map((page) => page.buffer as ArrayBuffer) : [];
}

/** The turns at the given transcript indices, without their text: what the citations table stores. */
export function citedTurnsOf(transcript: readonly TranscriptTurn[], lines: readonly number[]): (CitedTurn | null)[] {
  return lines.map((line) => {
    const turn = transcript[line];
    return turn ? { speaker: turn.speaker, id: turn.id, spokenAt: turn.spokenAt } : null;
  });
}
