import type { PromptDefinition } from '../types.js';

export const missingPrompt: PromptDefinition = {
  key: 'missing',
  title: 'Missing Information',
  shape: 'list',
  instructions: `List the information that was missing in the meeting: questions nobody could answer, facts or figures someone still has to find out, and details needed before a decision can be made.
- One bullet per item, saying who needs it when that is clear.
- If nothing was missing, say so in one sentence.`,
};
