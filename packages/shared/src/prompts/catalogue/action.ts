import type { PromptDefinition } from '../types.js';

export const actionPrompt: PromptDefinition = {
  key: 'action',
  title: 'Action Items',
  shape: 'list',
  instructions: `List the action items agreed in the meeting.
- One bullet per task, starting with the owner in bold ("<b>Name</b>: task"), with the deadline if one was given.
- Use "Unassigned" as the owner when nobody took the task.
- If there are no action items, say so in one sentence.`,
};
