import type { PromptDefinition } from '../types.js';

export const goalPrompt: PromptDefinition = {
  key: 'goal',
  title: 'Meeting goals',
  shape: 'list',
  instructions: `List the goals of this meeting: what the participants set out to achieve or agree on.
- One bullet per goal, most important first, each a short sentence.
- Say for each goal whether the transcript shows it was reached.
- Use only what the transcript says; if no goal is stated, infer it from the agenda and say so.`,
};
