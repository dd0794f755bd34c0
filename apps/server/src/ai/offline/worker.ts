/**
 * Entry of the offline engine's worker threads (pool.ts): one summary per task, off the event loop —
 * the transcript's pages decoded, the notes written and sanitised, and the cited lines picked out, so
 * the main thread neither holds the turns nor loads the HTML sanitiser.
 * Bundled on its own as apps/server/dist/offline-worker.js (scripts/build-server.mjs).
 */
import { sanitizeSummaryHtml } from '../sanitize.js';
import { citedTurnsOf, transcriptTurns, type CitedTurn, type TranscriptInput } from '../transcript-pages.js';
import { generateOffline, type OfflineRequest } from './engine.js';

/** An offline summary to write: its transcript as turns or as pages (transferred to the worker). */
export interface OfflineTask extends Omit<OfflineRequest, 'transcript'> {
  transcript: TranscriptInput;
}

/** Sanitised HTML citing `lines` (transcript indices); `cited[i]` is the line `lines[i]` (null when out of range). */
export interface OfflineAnswer {
  html: string;
  lines: number[];
  cited: (CitedTurn | null)[];
}

export default function runOfflineTask(task: OfflineTask): OfflineAnswer {
  const transcript = transcriptTurns(task.transcript);
  const { html, lines } = generateOffline({ ...task, transcript });
  return { html: sanitizeSummaryHtml(html), lines, cited: citedTurnsOf(transcript, lines) };
}
