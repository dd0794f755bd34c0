import type { PromptDefinition } from '../types.js';

export const nextPrompt: PromptDefinition = {
  key: 'next',
  title: 'Next Steps',
  shape: 'list',
  instructions: `List the next steps after this meeting: what happens next, follow-up meetings, things to prepare.
- One bullet per step, in the order they should happen, with who is involved and when, if known.
- If the transcript names no next step, say so in one sentence.`,
};
