import type { PromptDefinition } from '../types.js';

export const issuePrompt: PromptDefinition = {
  key: 'issue',
  title: 'Unresolved Issues',
  shape: 'list',
  instructions: `List the issues raised in the meeting that were not resolved: problems, disagreements, risks and concerns left open.
- One bullet per issue: the issue, who raised it, and why it is still open.
- If every issue was settled, say so in one sentence.`,
};
