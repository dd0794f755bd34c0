import { z } from 'zod';
import { languageCodeSchema } from './languages.js';

/** Every depth of product.md, Data; "abstract" is known (stored settings may hold it) but not offered. */
export const SUMMARY_DEPTHS = ['standard', 'deep', 'abstract', 'speaker'] as const;
export const summaryDepthSchema = z.enum(SUMMARY_DEPTHS);
export type SummaryDepth = z.infer<typeof summaryDepthSchema>;

/** The depths offered in the pickers, with their labels (product.md, Data). */
export const OFFERED_SUMMARY_DEPTHS: readonly { value: SummaryDepth; label: string }[] = [
  { value: 'standard', label: 'Standard' },
  { value: 'deep', label: 'Deep level of details' },
  { value: 'speaker', label: 'By speaker' },
];

export const SUMMARY_LENGTH_STEP = 50;
export const SUMMARY_MIN_LENGTH = 50;
/** Server-side defaults (product.md, Limits): min 200 words, max 0 = no limit. */
export const DEFAULT_SUMMARY_MIN_LENGTH = 200;
export const DEFAULT_SUMMARY_MAX_LENGTH = 0;
/** Defaults of the length inputs in the UI (product.md, Limits). */
export const UI_DEFAULT_SUMMARY_MIN_LENGTH = 50;
export const UI_DEFAULT_SUMMARY_MAX_LENGTH = 0;

const minLengthSchema = z
  .number({ error: 'minLength must be a number of words' })
  .int('minLength must be a whole number of words')
  .min(SUMMARY_MIN_LENGTH, `minLength must be at least ${SUMMARY_MIN_LENGTH} words`)
  .multipleOf(SUMMARY_LENGTH_STEP, `minLength must be a multiple of ${SUMMARY_LENGTH_STEP}`);

const maxLengthSchema = z
  .number({ error: 'maxLength must be a number of words' })
  .int('maxLength must be a whole number of words')
  .min(0, 'maxLength must be 0 (no limit) or a number of words')
  .multipleOf(SUMMARY_LENGTH_STEP, `maxLength must be a multiple of ${SUMMARY_LENGTH_STEP}`);

/** Summary settings of product.md, Data with the length rules of product.md, Validation (words; max 0 = no limit, else ≥ min). */
export const summarySettingsSchema = z
  .object({
    depth: summaryDepthSchema.default('standard'),
    minLength: minLengthSchema.default(DEFAULT_SUMMARY_MIN_LENGTH),
    maxLength: maxLengthSchema.default(DEFAULT_SUMMARY_MAX_LENGTH),
    /** Language code to write the answer in; empty or absent = the meeting's language. */
    translateTo: z.union([languageCodeSchema, z.literal('')]).default(''),
  })
  .refine((s) => s.maxLength === 0 || s.maxLength >= s.minLength, {
    message: 'maxLength must be 0 (no limit) or at least minLength',
    path: ['maxLength'],
  });

export type SummarySettings = z.output<typeof summarySettingsSchema>;
export type SummarySettingsInput = z.input<typeof summarySettingsSchema>;

export const DEFAULT_SUMMARY_SETTINGS: SummarySettings = {
  depth: 'standard',
  minLength: DEFAULT_SUMMARY_MIN_LENGTH,
  maxLength: DEFAULT_SUMMARY_MAX_LENGTH,
  translateTo: '',
};

/** Snaps to the input's step of 50, so what the UI keeps is always what the schema above accepts. */
function toStep(n: number): number {
  return Math.round(n / SUMMARY_LENGTH_STEP) * SUMMARY_LENGTH_STEP;
}

/** Min length input rule of product.md, Validation: a non-integer falls back to 50; never below 50; step 50. */
export function coerceMinSummaryLength(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) return SUMMARY_MIN_LENGTH;
  return Math.max(SUMMARY_MIN_LENGTH, toStep(n));
}

/** Max length input rule of product.md, Validation: a non-integer falls back to 0 (no limit); otherwise at least min; step 50. */
export function coerceMaxSummaryLength(value: unknown, minLength: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0) return 0;
  return Math.max(minLength, toStep(n));
}
