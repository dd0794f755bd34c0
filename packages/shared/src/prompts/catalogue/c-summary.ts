import type { PromptDefinition } from '../types.js';

export const deepSummaryPrompt: PromptDefinition = {
  key: 'c_summary',
  title: 'Deep Summary',
  shape: 'prose',
  instructions: `Write a detailed summary of the whole meeting.
- Open with one paragraph giving the purpose of the meeting and its participants.
- Then give one section per topic discussed, in order, each with a short heading and the arguments,
  figures, proposals and objections raised, naming who raised them.
- End with the decisions taken, the action items (with owners) and the questions left open.
- Use only facts from the transcript; never invent names, numbers or dates.`,
};
