import { actionPrompt } from './catalogue/action.js';
import { deepSummaryPrompt } from './catalogue/c-summary.js';
import { customPrompt } from './catalogue/custom.js';
import { decisionPrompt } from './catalogue/decision.js';
import { goalPrompt } from './catalogue/goal.js';
import { issuePrompt } from './catalogue/issue.js';
import { missingPrompt } from './catalogue/missing.js';
import { nextPrompt } from './catalogue/next.js';
import { purposePrompt } from './catalogue/purpose.js';
import { sentimentPrompt } from './catalogue/sentiment.js';
import { summaryPrompt } from './catalogue/summary.js';
import { topicPrompt } from './catalogue/topic.js';
import type { PromptDefinition, PromptKey } from './types.js';

/** Every prompt by key; each one's instructions live in its own file under catalogue/. */
export const PROMPTS: Readonly<Record<PromptKey, PromptDefinition>> = {
  summary: summaryPrompt,
  goal: goalPrompt,
  topic: topicPrompt,
  purpose: purposePrompt,
  decision: decisionPrompt,
  action: actionPrompt,
  next: nextPrompt,
  issue: issuePrompt,
  missing: missingPrompt,
  sentiment: sentimentPrompt,
  custom: customPrompt,
  c_summary: deepSummaryPrompt,
};

/** The default prompt list of product.md, Limits, in picker order. */
export const DEFAULT_PROMPT_LIST: readonly PromptKey[] = [
  'summary',
  'goal',
  'topic',
  'purpose',
  'decision',
  'action',
  'next',
  'issue',
  'missing',
  'sentiment',
];

/** The alternate list of product.md, Limits (Summary, Deep Summary, Main topics, Summary in 1 sentence). */
export const ALTERNATE_PROMPT_LIST: readonly PromptKey[] = ['summary', 'c_summary', 'topic', 'purpose'];

export function getPrompt(key: PromptKey): PromptDefinition {
  return PROMPTS[key];
}

/** Title of a generated summary: the prompt's title, or the question itself for a custom prompt. */
export function promptTitle(key: PromptKey, customQuestion?: string): string {
  if (key === 'custom' && customQuestion && customQuestion.trim()) {
    const question = customQuestion.trim().replace(/\s+/g, ' ');
    return question.length > 120 ? `${question.slice(0, 117)}...` : question;
  }
  return PROMPTS[key].title;
}
