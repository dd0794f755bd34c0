import {
  ALTERNATE_PROMPT_LIST,
  DEFAULT_PROMPT_LIST,
  PROMPTS,
  type PromptKey,
} from '@mbox/shared/prompts/index';
import type { PromptListName, Summary, SummaryList } from '@mbox/shared/summary';

/** One entry of the prompt type picker: a catalogue prompt, or a custom question already asked. */
export interface PromptOption {
  /** Stable picker value: the prompt key, or `custom:<docId>` for an asked question. */
  id: string;
  promptKey: PromptKey;
  label: string;
  /** The stored summary of this entry, when one exists. */
  summary: Summary | undefined;
}

export const PROMPT_LISTS: Readonly<Record<PromptListName, readonly PromptKey[]>> = {
  default: DEFAULT_PROMPT_LIST,
  alternate: ALTERNATE_PROMPT_LIST,
};

export const customOptionId = (docId: string) => `custom:${docId}`;

/**
 * product.md, Limits / States: the prompt list the server names, in order, each with its stored summary, then the
 * custom questions already asked (oldest first) labelled by their title.
 */
export function buildPromptOptions(listName: PromptListName, summaries: readonly Summary[]): PromptOption[] {
  const catalogue = PROMPT_LISTS[listName].map((promptKey) => ({
    id: promptKey,
    promptKey,
    label: PROMPTS[promptKey].title,
    summary: summaries.find((s) => s.promptKey === promptKey && s.type === 'summary'),
  }));
  const asked = summaries
    .filter((s) => s.promptKey === 'custom')
    .map((summary) => ({ id: customOptionId(summary.docId), promptKey: summary.promptKey, label: summary.title, summary }));
  return [...catalogue, ...asked];
}

/** The summary list with `summary` put in (replacing the stored one with its docId, else appended). */
export function upsertSummary(list: SummaryList, summary: Summary): SummaryList {
  const index = list.summaries.findIndex((s) => s.docId === summary.docId);
  const summaries =
    index === -1 ? [...list.summaries, summary] : list.summaries.map((s, i) => (i === index ? summary : s));
  return { ...list, summaries };
}

/** The summary list with a translation of one summary stored, so picking it again needs no call. */
export function withTranslation(list: SummaryList, docId: string, language: string, text: string): SummaryList {
  return {
    ...list,
    summaries: list.summaries.map((s) =>
      s.docId === docId ? { ...s, translations: { ...s.translations, [language]: { text } } } : s,
    ),
  };
}

/** Whether an AI answer carries no readable text (product.md, Errors: an empty result is an error). */
export function isEmptyResult(html: string): boolean {
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim() === '';
}
