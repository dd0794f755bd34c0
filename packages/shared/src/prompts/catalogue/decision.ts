import type { PromptDefinition } from '../types.js';

export const decisionPrompt: PromptDefinition = {
  key: 'decision',
  title: 'Key decisions',
  shape: 'list',
  instructions: `List the decisions taken in the meeting.
- One bullet per decision: what was decided and, when clear, who proposed or approved it.
- Only include real decisions or agreements, not ideas that were merely mentioned.
- If nothing was decided, say so in one sentence.`,
};
