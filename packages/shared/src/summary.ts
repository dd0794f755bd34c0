import { z } from 'zod';
import { meetingIdSchema } from './meeting.js';
import { languageCodeSchema } from './prompts/languages.js';
import { promptKeySchema } from './prompts/types.js';

/** Content type of a generated document (product.md, Data). */
export const CONTENT_TYPES = ['summary', 'transcription'] as const;
export const contentTypeSchema = z.enum(CONTENT_TYPES);
export type ContentType = z.infer<typeof contentTypeSchema>;

export const summaryTranslationSchema = z.object({ text: z.string() });

/** Language code → translated text; English is the original and never stored here. */
export const summaryTranslationsSchema = z.partialRecord(languageCodeSchema, summaryTranslationSchema);
export type SummaryTranslations = z.infer<typeof summaryTranslationsSchema>;

/**
 * A transcript line a summary cites. The summary's HTML marks each cited point with
 * `<sup class="cite" data-cite="1,3">`, whose numbers are the `n` of these entries.
 */
export const summaryCitationSchema = z.object({
  n: z.number().int().positive(),
  /** The Message the line is: what a citation opens in the transcript. */
  messageId: z.string(),
  /** When the line was spoken, epoch milliseconds. */
  spokenAt: z.number(),
  speaker: z.string(),
});
export type SummaryCitation = z.infer<typeof summaryCitationSchema>;

/** A generated summary of a meeting (product.md, Data). text is HTML. */
export const summarySchema = z.object({
  docId: z.string(),
  type: contentTypeSchema,
  title: z.string(),
  text: z.string(),
  translations: summaryTranslationsSchema,
  encrypted: z.boolean(),
  promptKey: promptKeySchema,
  /** The question of a custom prompt; empty for catalogue prompts. */
  customPrompt: z.string(),
  /** The lines its points cite, by number (translations cite the same numbers); empty when it cites none. */
  citations: z.array(summaryCitationSchema),
  /**
   * What wrote it: `mbox-offline` (the offline engine), `local:<file>` (the built-in local model) or the
   * OpenAI-compatible server's model; empty for summaries stored before it was recorded.
   */
  model: z.string(),
});
export type Summary = z.infer<typeof summarySchema>;

export const summaryListInputSchema = z.strictObject({ id: meetingIdSchema });

/**
 * Which prompt list of product.md, Limits the picker offers: the default one (Summary, Meeting goals, …) or the
 * alternate one (Summary, Deep Summary, Main topics, Summary in 1 sentence). Chosen by the server.
 */
export const PROMPT_LIST_NAMES = ['default', 'alternate'] as const;
export const promptListNameSchema = z.enum(PROMPT_LIST_NAMES);
export type PromptListName = z.infer<typeof promptListNameSchema>;

/**
 * GET /v1/summary-list/{id}: summariesDisabled is true while the meeting is too small to summarise;
 * promptList says which prompt list the picker shows.
 */
export const summaryListSchema = z.object({
  summaries: z.array(summarySchema),
  summariesDisabled: z.boolean(),
  promptList: promptListNameSchema,
});
export type SummaryList = z.infer<typeof summaryListSchema>;
