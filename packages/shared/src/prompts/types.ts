import { z } from 'zod';

/** Every prompt key of product.md, Data; c_summary only appears in the alternate list. */
export const PROMPT_KEYS = [
  'summary',
  'goal',
  'topic',
  'purpose',
  'decision',
  'action',
  'next',
  'issue',
  'missing',
  'sentiment',
  'custom',
  'c_summary',
] as const;

export const promptKeySchema = z.enum(PROMPT_KEYS);
export type PromptKey = z.infer<typeof promptKeySchema>;

/**
 * The shape of an answer decides how length settings apply: prose honours min and max length,
 * lists only the maximum (a meeting with two decisions must not be padded to 200 words),
 * a sentence is always one sentence.
 */
export type PromptShape = 'prose' | 'list' | 'sentence';

export interface PromptDefinition {
  key: PromptKey;
  /** Label shown in the prompt picker (product.md, Limits). */
  title: string;
  shape: PromptShape;
  /** What the model is asked to produce from the transcript, in plain words. */
  instructions: string;
}
