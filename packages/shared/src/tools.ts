import { z } from 'zod';
import { PROMPT_KEYS, type PromptKey } from './prompts/types.js';

/**
 * The summarizer tools of product.md, Screens / API: pasted text, a web link or a YouTube link, signed in
 * (/v1/utils) or public (/v1/public/utils). Limits a user would expect, stated once here.
 */

/** Longest pasted text: about 8,000 words, a long article or a one-hour talk. */
export const SUMMARIZER_MAX_TEXT_CHARS = 50_000;
/** Shortest text worth summarising: a couple of sentences. */
export const SUMMARIZER_MIN_TEXT_CHARS = 80;
/** Summaries a day for public visitors (per IP address) and Basic users (per account); premium is unlimited. */
export const SUMMARIZER_DAILY_LIMIT = 10;
/** product.md, Data: the summary type of a summarization request when none is given. */
export const DEFAULT_TOOL_SUMMARY_KEY = 'c_summary' satisfies PromptKey;

/** Prompt types a tool summary may use: every catalogue prompt but the meeting question. */
export const TOOL_SUMMARY_KEYS = PROMPT_KEYS.filter((key) => key !== 'custom') as Exclude<PromptKey, 'custom'>[];
export const toolSummaryKeySchema = z.enum(TOOL_SUMMARY_KEYS as [Exclude<PromptKey, 'custom'>, ...Exclude<PromptKey, 'custom'>[]]);

const textSchema = z
  .string()
  .trim()
  .min(SUMMARIZER_MIN_TEXT_CHARS, `text must be at least ${SUMMARIZER_MIN_TEXT_CHARS} characters`)
  .max(SUMMARIZER_MAX_TEXT_CHARS, `text must be at most ${SUMMARIZER_MAX_TEXT_CHARS} characters`);

/**
 * product.md, Data "Summarization request": text or link (exactly one), params.summaryKey (default c_summary).
 * The link is checked by the server (linkSchema / youTubeLinkSchema of ./link.ts) so the error names it.
 */
export const summarizeInputSchema = z
  .strictObject({
    text: textSchema.optional(),
    link: z.string().max(4096, 'link is too long').optional(),
    params: z
      .strictObject({ summaryKey: toolSummaryKeySchema.default(DEFAULT_TOOL_SUMMARY_KEY) })
      .default({ summaryKey: DEFAULT_TOOL_SUMMARY_KEY }),
  })
  .superRefine((input, ctx) => {
    if ((input.text === undefined) === (input.link === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'Give either text or link' });
    }
  });
export type SummarizeInput = z.input<typeof summarizeInputSchema>;

/** What was summarised, for the metadata line under the summary. */
export const summarySourceSchema = z.object({
  kind: z.enum(['text', 'link', 'youtube']),
  title: z.string(),
  /** Host name of a link, 'YouTube' for a video, '' for pasted text. */
  site: z.string(),
  url: z.string(),
  words: z.number().int().nonnegative(),
  /** Length of a video in seconds; null for text and web pages. */
  durationSeconds: z.number().int().nonnegative().nullable(),
});
export type SummarySource = z.infer<typeof summarySourceSchema>;

/** product.md, Data: result.summary and result.metadata are HTML; source is the same metadata as data. */
export const summarizeResultSchema = z.object({
  summary: z.string(),
  metadata: z.string(),
  source: summarySourceSchema,
});
export type SummarizeResult = z.infer<typeof summarizeResultSchema>;

/** product.md, API: `{ result }` on success, `{ error }` with a message a person can read otherwise. */
export const summarizeOutputSchema = z.union([
  z.object({ result: summarizeResultSchema }),
  z.object({ error: z.string() }),
]);
export type SummarizeOutput = z.infer<typeof summarizeOutputSchema>;

/** Which summarizer: 'youtube' takes only YouTube links (product.md, API: chosen when the link names YouTube). */
export const SUMMARIZER_MODES = ['summary', 'youtube'] as const;
export const summarizerModeSchema = z.enum(SUMMARIZER_MODES);
export type SummarizerMode = z.infer<typeof summarizerModeSchema>;

/** Input of the streaming subscription (tools.summarizeStream), signed in or public. */
export const summarizeStreamInputSchema = z.strictObject({
  mode: summarizerModeSchema,
  request: summarizeInputSchema,
});

/** Events of tools.summarizeStream: text as it is written, then the stored result or an error. */
export const summarizeStreamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('source'), source: summarySourceSchema }),
  z.object({ type: z.literal('token'), text: z.string() }),
  z.object({ type: z.literal('done'), result: summarizeResultSchema }),
  z.object({ type: z.literal('error'), error: z.string() }),
]);
export type SummarizeStreamEvent = z.infer<typeof summarizeStreamEventSchema>;

/** GET /v1/utils/youtube?link=: the link to look up (checked as a YouTube link by the server). */
export const youTubeInfoInputSchema = z.strictObject({
  link: z.string().max(4096, 'link is too long'),
});
export type YouTubeInfoInput = z.infer<typeof youTubeInfoInputSchema>;

/** What the summarizer knows about a video before summarising it; `hasCaptions: false` cannot be summarised. */
export const youTubeInfoSchema = z.object({
  videoId: z.string(),
  /** The canonical watch link of the video. */
  url: z.string(),
  title: z.string(),
  /** Channel name; '' when YouTube does not say. */
  author: z.string(),
  /** Length of the video in seconds; null when YouTube does not say (live streams). */
  durationSeconds: z.number().int().nonnegative().nullable(),
  hasCaptions: z.boolean(),
});
export type YouTubeInfo = z.infer<typeof youTubeInfoSchema>;
