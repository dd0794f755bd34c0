import type { PromptDefinition } from '../types.js';

export const purposePrompt: PromptDefinition = {
  key: 'purpose',
  title: 'Summary in 1 sentence',
  shape: 'sentence',
  instructions: `Summarise the whole meeting in exactly one sentence: who met, about what, and the main outcome.
- No list, no heading, no second sentence.`,
};
