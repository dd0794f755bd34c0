import type { PromptDefinition } from '../types.js';

export const sentimentPrompt: PromptDefinition = {
  key: 'sentiment',
  title: 'Sentiment Analysis',
  shape: 'list',
  instructions: `Analyse the sentiment of the meeting.
- Start with the overall tone in one sentence (positive, neutral, negative or mixed) and why.
- Then one bullet per participant: their overall sentiment and a short example of what they said that shows it.
- Note moments of tension or enthusiasm, if any.`,
};
