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

/** A question to Ask (one meeting or all): the API's rule, which the web app's question field reads too. */
export const questionSchema = z
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

// ---------------------------------------------------------------- ask all meetings (docs/ask.md)

/** A calendar day in the asker's time zone, for the explicit period of a question across meetings. */
const dayFilterSchema = (field: 'from' | 'to') =>
  z.iso.date({ error: `${field} must be a calendar date written YYYY-MM-DD, e.g. 2026-10-31` }).optional();

/**
 * ask.all / ask.allStream (POST /v1/ask): a question about every meeting of the user. `from` and `to`
 * (days in the user's time zone, both included) restrict the meetings searched; without them a date
 * phrase in the question ("last month", "in October", "since Monday") does.
 */
export const askAllInputSchema = z
  .strictObject({
    question: questionSchema,
    from: dayFilterSchema('from'),
    to: dayFilterSchema('to'),
  })
  .superRefine((input, ctx) => {
    if (input.from !== undefined && input.to !== undefined && input.to < input.from) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: `to must not be before from (${input.from})` });
    }
  });
export type AskAllInput = z.input<typeof askAllInputSchema>;

/** A line the answer across meetings relies on: the line, and the meeting it was said in. */
export const askAllCitationSchema = askCitationSchema.extend({
  meetingId: z.string(),
  meetingTitle: z.string(),
  /** When the meeting started, epoch milliseconds. */
  meetingDate: z.number(),
});
export type AskAllCitation = z.infer<typeof askAllCitationSchema>;

/** The period the meetings searched were restricted to. */
export const askAllRangeSchema = z.object({
  /** First moment included, epoch milliseconds; null: no start ("before October"). */
  from: z.number().nullable(),
  /** First moment after the period, epoch milliseconds; null: up to now ("since Monday"). */
  to: z.number().nullable(),
  /** The days, in the user's time zone: "Oct 1, 2026 – Oct 31, 2026", one day, "since Nov 23, 2026", "before Oct 1, 2026". */
  label: z.string(),
  /** The words of the question that set it ("last month"); null when `from`/`to` did. */
  said: z.string().nullable(),
});
export type AskAllRange = z.infer<typeof askAllRangeSchema>;

/** What was searched: the period (null: every meeting), the meetings in it, and the encrypted ones left out. */
export const askAllScopeSchema = z.object({
  range: askAllRangeSchema.nullable(),
  /** Meetings searched. */
  meetings: z.number().int(),
  /** Encrypted meetings in the period, never searched (their text is sealed). */
  encryptedMeetings: z.number().int(),
});
export type AskAllScope = z.infer<typeof askAllScopeSchema>;

/** The whole answer across meetings (POST /v1/ask; the done event of ask.allStream). */
export const askAllAnswerSchema = z.object({
  /** Plain text with `[n]` markers; it states the period and the encrypted meetings left out. */
  answer: z.string(),
  citations: z.array(askAllCitationSchema),
  engine: aiEngineSchema,
  scope: askAllScopeSchema,
});
export type AskAllAnswer = z.infer<typeof askAllAnswerSchema>;

/**
 * Events of ask.allStream, in order: `scope` (what is searched), then as ask.stream: `citations`,
 * `delta`, and `done` (the whole answer) or `error`.
 */
export const askAllStreamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('scope'), scope: askAllScopeSchema }),
  z.object({ type: z.literal('citations'), citations: z.array(askAllCitationSchema) }),
  z.object({ type: z.literal('delta'), text: z.string() }),
  askAllAnswerSchema.extend({ type: z.literal('done') }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type AskAllStreamEvent = z.infer<typeof askAllStreamEventSchema>;
