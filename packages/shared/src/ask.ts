import { z } from 'zod';
import { meetingIdSchema } from './meeting.js';
import { aiEngineSchema } from './generation.js';
import { MIN_QUESTION_LENGTH } from './ui-messages.js';

/** Longest question: a question, not a document (as custom prompts). */
export const MAX_ASK_QUESTION_LENGTH = 1000;
/** Earlier turns sent back for a follow-up; older ones add tokens more than meaning. */
export const MAX_ASK_HISTORY = 6;
/** Longest earlier answer kept in the history (answers are a few sentences; this bounds the request). */
export const MAX_ASK_HISTORY_ANSWER_LENGTH = 4000;

const questionSchema = z
  .string()
  .trim()
  .min(MIN_QUESTION_LENGTH, `question must be at least ${MIN_QUESTION_LENGTH} characters`)
  .max(MAX_ASK_QUESTION_LENGTH, `question must be at most ${MAX_ASK_QUESTION_LENGTH} characters`);

/** One earlier question and its answer, oldest first, so "and when?" can follow "what did Bob promise?". */
export const askTurnSchema = z.strictObject({
  question: questionSchema,
  answer: z
    .string()
    .trim()
    .max(MAX_ASK_HISTORY_ANSWER_LENGTH, `history answers must be at most ${MAX_ASK_HISTORY_ANSWER_LENGTH} characters`),
});
export type AskTurn = z.infer<typeof askTurnSchema>;

/** ask.stream: a question about one of the user's meetings, over its transcript so far. */
export const askInputSchema = z.strictObject({
  meetingId: meetingIdSchema,
  question: questionSchema,
  history: z.array(askTurnSchema).max(MAX_ASK_HISTORY, `history must hold at most ${MAX_ASK_HISTORY} turns`).default([]),
});
export type AskInput = z.input<typeof askInputSchema>;

/** A transcript line the answer relies on; the answer's text refers to it as `[n]`. */
export const askCitationSchema = z.object({
  n: z.number().int().positive(),
  messageId: z.string(),
  speaker: z.string(),
  /** When the line was spoken, epoch milliseconds (shown hh:mm in the reader's zone). */
  spokenAt: z.number(),
  text: z.string(),
});
export type AskCitation = z.infer<typeof askCitationSchema>;

/**
 * Events of ask.stream, in order: `citations` (lines as they become cited; may come several times,
 * each adding lines), `delta` (the answer's plain text as it is produced, with `[n]` markers), then
 * `done` (the whole answer and every cited line) or `error` (the answer failed after the stream
 * started; the daily use is given back). Refusals before the stream (bad input, unknown meeting,
 * daily limit) are the subscription's error instead.
 */
export const askStreamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('citations'), citations: z.array(askCitationSchema) }),
  z.object({ type: z.literal('delta'), text: z.string() }),
  z.object({ type: z.literal('done'), answer: z.string(), citations: z.array(askCitationSchema), engine: aiEngineSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type AskStreamEvent = z.infer<typeof askStreamEventSchema>;

/** Matches the `[n]` (or `[n, m]`) citation markers of an answer's text. */
export const CITATION_MARKER = /\[(\d{1,4}(?:\s*,\s*\d{1,4})*)\]/g;
