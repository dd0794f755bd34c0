import { z } from 'zod';
import { meetingIdSchema, messageSchema } from './meeting.js';
import { languageCodeSchema } from './prompts/languages.js';
import { summarySettingsSchema } from './prompts/settings.js';
import { promptKeySchema } from './prompts/types.js';
import { contentTypeSchema, summarySchema } from './summary.js';
import { MIN_QUESTION_LENGTH } from './ui-messages.js';

/** Longest custom question; a question, not a document. */
export const MAX_CUSTOM_PROMPT_LENGTH = 1000;

/** docId of a stored summary, as {summaryKey} in the paths of product.md, API. */
export const summaryKeySchema = z.string().trim().min(1).max(100);

const customPromptSchema = z
  .string()
  .trim()
  .min(MIN_QUESTION_LENGTH, `customPrompt must be a question of at least ${MIN_QUESTION_LENGTH} characters`)
  .max(MAX_CUSTOM_PROMPT_LENGTH, `customPrompt must be at most ${MAX_CUSTOM_PROMPT_LENGTH} characters`);

/**
 * POST /v1/prompts: generate (or replace) the meeting's summary of one prompt type. promptKey
 * 'custom' asks customPrompt of the meeting (premium); other keys take no customPrompt.
 */
export const generateSummaryInputSchema = z
  .strictObject({
    meetKey: meetingIdSchema,
    promptKey: promptKeySchema,
    customPrompt: customPromptSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.promptKey === 'custom' && input.customPrompt === undefined) {
      ctx.addIssue({ code: 'custom', path: ['customPrompt'], message: "customPrompt is required with promptKey 'custom'" });
    }
    if (input.promptKey !== 'custom' && input.customPrompt !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['customPrompt'], message: "customPrompt is only taken with promptKey 'custom'" });
    }
  });
export type GenerateSummaryInput = z.infer<typeof generateSummaryInputSchema>;

/** PUT /v1/prompts/{summaryKey}: regenerate a stored summary with the user's default settings. */
export const regenerateSummaryInputSchema = z.strictObject({
  summaryKey: summaryKeySchema,
  meetKey: meetingIdSchema,
  promptKey: promptKeySchema,
});
export type RegenerateSummaryInput = z.infer<typeof regenerateSummaryInputSchema>;

/** PUT /v1/p/prompts/{summaryKey} (premium): regenerate with these settings; absent fields take the server defaults. */
export const regenerateSummaryWithSettingsInputSchema = regenerateSummaryInputSchema.extend({
  settings: summarySettingsSchema,
});
export type RegenerateSummaryWithSettingsInput = z.infer<typeof regenerateSummaryWithSettingsInputSchema>;

/** POST /v1/translate: the summary's text in languageKey ('en' is the original). */
export const translateSummaryInputSchema = z.strictObject({
  meetKey: meetingIdSchema,
  type: contentTypeSchema,
  summaryKey: summaryKeySchema,
  languageKey: languageCodeSchema,
});
export type TranslateSummaryInput = z.infer<typeof translateSummaryInputSchema>;

/** The translated HTML. */
export const translateSummaryOutputSchema = z.object({ text: z.string() });

/** PUT /v1/p/message/ai-fix/{id}: the message with its cleaned text in aiFixed (text is never changed). */
export const aiFixMessageOutputSchema = z.object({ message: messageSchema });

/**
 * Events of the streaming generation (tRPC subscription summary.generateStream): the answer's text
 * as it is produced, then the stored summary, exactly as POST /v1/prompts returns it.
 */
export const summaryStreamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('token'), text: z.string() }),
  z.object({ type: z.literal('done'), summary: summarySchema }),
]);
export type SummaryStreamEvent = z.infer<typeof summaryStreamEventSchema>;

/** The engines that answer, in the order the server picks them: an OpenAI-compatible server, the built-in local model, the offline engine. */
export const AI_ENGINES = ['openai', 'local', 'offline'] as const;
export const aiEngineSchema = z.enum(AI_ENGINES);
export type AiEngineKind = z.infer<typeof aiEngineSchema>;

/** The model name a summary records for the offline engine; the local model's are `local:<file>`. */
export const OFFLINE_MODEL_NAME = 'mbox-offline';

/** Which engine wrote a text, from the model name it recorded ('' for summaries older than the record). */
export function engineOfModel(model: string): AiEngineKind | null {
  if (!model) return null;
  if (model === OFFLINE_MODEL_NAME) return 'offline';
  return model.startsWith('local:') ? 'local' : 'openai';
}

/** What the interface says wrote an answer: "the offline engine", "the local model qwen2.5-…", "gpt-4o". */
export function engineLabel(engine: AiEngineKind, model = ''): string {
  if (engine === 'offline') return 'the offline engine';
  if (engine === 'local') return model ? `the local model ${model.replace(/^local:/, '')}` : 'the local model';
  return model || 'the AI server';
}

/**
 * Says whether the server has an LLM (translation needs one: the offline engine cannot translate) and
 * which engine answers now.
 */
export const aiCapabilitiesSchema = z.object({
  llmConfigured: z.boolean(),
  engine: aiEngineSchema,
});
export type AiCapabilities = z.infer<typeof aiCapabilitiesSchema>;

/** Shown where translation is offered while the server has no LLM: what is missing and where to set it up. */
export const TRANSLATION_NEEDS_MODEL =
  'Translation needs an AI model. Add a local model in Settings → AI (administrators), or set one up on the server ' +
  'with OPENAI_API_KEY (and OPENAI_BASE_URL for Ollama, vLLM, LM Studio or OpenRouter), as docs/ai.md describes.';
