import type { PromptDefinition } from '../types.js';

export const topicPrompt: PromptDefinition = {
  key: 'topic',
  title: 'Main topics',
  shape: 'list',
  instructions: `List the main topics discussed in the meeting, in the order they came up.
- One bullet per topic: a short bold title, then one or two sentences on what was said about it.
- Merge small digressions into the topic they belong to; skip greetings and small talk.`,
};
