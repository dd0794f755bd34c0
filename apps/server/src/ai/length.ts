import type { PromptShape, SummarySettings } from '@mbox/shared';

export interface LengthBudget {
  /** Words to reach at least (0 = no minimum). */
  minWords: number;
  /** Words never to exceed (0 = no limit). */
  maxWords: number;
  /** Most items of a list answer. */
  maxItems: number;
}

/**
 * How the length settings (words) apply to an answer: prose honours min and max, with "deep"
 * asking for more detail; lists are capped by max only; a one-sentence answer ignores both.
 */
export function lengthBudget(shape: PromptShape, settings: SummarySettings): LengthBudget {
  const { minLength, maxLength, depth } = settings;
  const detail = depth === 'deep' ? 1.75 : 1;
  if (shape === 'sentence') return { minWords: 0, maxWords: 0, maxItems: 1 };
  if (shape === 'list') return { minWords: 0, maxWords: maxLength, maxItems: depth === 'deep' ? 12 : 8 };
  let minWords = Math.round(minLength * detail);
  if (maxLength > 0) minWords = Math.min(Math.max(minWords, minLength), maxLength);
  return { minWords, maxWords: maxLength, maxItems: 1000 };
}
