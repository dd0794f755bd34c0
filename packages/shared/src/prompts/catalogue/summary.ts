import type { PromptDefinition } from '../types.js';

export const summaryPrompt: PromptDefinition = {
  key: 'summary',
  title: 'Summary',
  shape: 'prose',
  instructions: `Write a summary of the whole meeting.
- Start with one short paragraph saying what the meeting was about and who took part.
- Then cover the main points discussed, in the order they came up, naming who said what when it matters.
- Include the decisions taken and the open points, if any.
- Use only facts from the transcript; never invent names, numbers or dates.`,
};
