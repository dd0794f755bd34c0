import { describe, expect, it } from 'vitest';
import type { Summary, SummaryList } from '@mbox/shared/summary';
import { buildPromptOptions, isEmptyResult, upsertSummary, withTranslation } from './prompt-options';
import { streamPreview } from './stream-preview';

function summary(extra: Partial<Summary>): Summary {
  return {
    docId: 'd1',
    type: 'summary',
    title: 'Summary',
    text: '<p>We ship Friday.</p>',
    translations: {},
    encrypted: false,
    promptKey: 'summary',
    customPrompt: '',
    model: 'mbox-offline',
    citations: [],
    ...extra,
  };
}

describe('prompt options', () => {
  it('lists the default prompts of product.md, Limits in order, with their stored summaries', () => {
    const stored = summary({ docId: 'a', promptKey: 'decision', title: 'Key decisions' });
    const options = buildPromptOptions('default', [stored]);
    expect(options.map((o) => o.label)).toEqual([
      'Summary',
      'Meeting goals',
      'Main topics',
      'Summary in 1 sentence',
      'Key decisions',
      'Action Items',
      'Next Steps',
      'Unresolved Issues',
      'Missing Information',
      'Sentiment Analysis',
    ]);
    expect(options.find((o) => o.promptKey === 'decision')?.summary).toBe(stored);
    expect(options.find((o) => o.promptKey === 'summary')?.summary).toBeUndefined();
  });

  it('lists the alternate prompts when the server says so', () => {
    expect(buildPromptOptions('alternate', []).map((o) => o.label)).toEqual([
      'Summary',
      'Deep Summary',
      'Main topics',
      'Summary in 1 sentence',
    ]);
  });

  it('adds the questions already asked after the catalogue, labelled by their title, oldest first', () => {
    const first = summary({ docId: 'q1', promptKey: 'custom', title: 'Who pays?', customPrompt: 'Who pays?' });
    const second = summary({ docId: 'q2', promptKey: 'custom', title: 'When do we ship?', customPrompt: 'When do we ship?' });
    const options = buildPromptOptions('alternate', [first, summary({}), second]);
    expect(options.slice(4)).toEqual([
      { id: 'custom:q1', promptKey: 'custom', label: 'Who pays?', summary: first },
      { id: 'custom:q2', promptKey: 'custom', label: 'When do we ship?', summary: second },
    ]);
  });
});

describe('summary list cache updates', () => {
  const list: SummaryList = { summaries: [summary({ docId: 'a' })], summariesDisabled: false, promptList: 'default' };

  it('replaces a regenerated summary in place and appends a new one', () => {
    const regenerated = summary({ docId: 'a', text: '<p>New.</p>' });
    expect(upsertSummary(list, regenerated).summaries).toEqual([regenerated]);
    const added = summary({ docId: 'b', promptKey: 'goal' });
    expect(upsertSummary(list, added).summaries.map((s) => s.docId)).toEqual(['a', 'b']);
  });

  it('stores a translation beside the others so it is reused', () => {
    const withFr = withTranslation(list, 'a', 'fr', '<p>Vendredi.</p>');
    const withPl = withTranslation(withFr, 'a', 'pl', '<p>Piątek.</p>');
    expect(withPl.summaries[0]!.translations).toEqual({ fr: { text: '<p>Vendredi.</p>' }, pl: { text: '<p>Piątek.</p>' } });
    expect(list.summaries[0]!.translations).toEqual({});
  });

  it('treats an answer without readable text as empty', () => {
    expect(isEmptyResult('<p> </p><br>&nbsp;')).toBe(true);
    expect(isEmptyResult('<p>Yes.</p>')).toBe(false);
  });
});

describe('stream preview', () => {
  it('shows partial HTML as text with bullets and line breaks, hiding a half-written tag', () => {
    expect(streamPreview('<h3>Goals</h3><ul><li>Ship <strong>Friday</strong></li><li>Hire &amp; train</li></ul><p')).toBe(
      'Goals\n• Ship Friday\n• Hire & train\n\n',
    );
  });

  it('leaves Markdown as written', () => {
    expect(streamPreview('## Decisions\n- Launch on March 10')).toBe('## Decisions\n- Launch on March 10');
  });
});
