import type { PromptDefinition } from '../types.js';

export const customPrompt: PromptDefinition = {
  key: 'custom',
  title: 'Custom question',
  shape: 'prose',
  instructions: `Answer the user's question about the meeting using only the transcript.
- Answer directly first, then give the supporting details and who said them.
- If the transcript does not contain the answer, say so plainly instead of guessing.`,
};
