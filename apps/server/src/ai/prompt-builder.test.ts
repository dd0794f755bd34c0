import { describe, expect, it } from 'vitest';
import { DEFAULT_SUMMARY_SETTINGS, PROMPTS } from '@mbox/shared';
import { CITATION_RULE, buildSummaryMessages, buildTranslateMessages, formatNumberedLine, formatTranscript, lengthRule } from './prompt-builder.js';

describe('prompt building', () => {
  it('formats the transcript as "Speaker: text" lines without annotations or empty turns', () => {
    expect(
      formatTranscript([
        { speaker: 'Project Manager', text: 'Okay , um {vocalsound} so the the budget is fixed .' },
        { speaker: 'Marketing', text: '{vocalsound}' },
        { speaker: '', text: 'Uh hello' },
      ]),
    ).toBe('Project Manager: Okay, so the budget is fixed.\nUnknown: Hello');
  });

  it('puts the task, depth, length, language and format into the system message', () => {
    const [sys, user] = buildSummaryMessages({
      promptKey: 'topic',
      transcriptText: 'Ann: Hi.',
      settings: { ...DEFAULT_SUMMARY_SETTINGS, depth: 'speaker', maxLength: 300, translateTo: 'pl' },
    });
    expect(sys!.role).toBe('system');
    expect(sys!.content).toContain('Task: Main topics.');
    expect(sys!.content).toContain(PROMPTS.topic.instructions);
    expect(sys!.content).toContain('Depth: by speaker.');
    expect(sys!.content).toContain('Length: at most 300 words in total.');
    expect(sys!.content).toContain('in Polish');
    expect(sys!.content).toContain(CITATION_RULE);
    expect(user!.content).toMatch(/Ann: Hi\.$/);
    expect(formatNumberedLine({ speaker: 'Ann', text: 'um hi {vocalsound}' }, 7)).toBe('[7] Ann: Hi');
  });

  it('tells the model it reads a document, not a meeting, for the summarizer tools', () => {
    const [sys, user] = buildSummaryMessages({
      promptKey: 'c_summary',
      transcriptText: 'The article: Libraries open late on Thursdays.',
      settings: DEFAULT_SUMMARY_SETTINGS,
      material: 'document',
    });
    expect(sys!.content).toContain('summarises documents');
    // Documents have no lines to open: no numbers, no citations.
    expect(sys!.content).not.toContain(CITATION_RULE);
    expect(sys!.content).not.toContain('Google Meet');
    expect(sys!.content).toContain('apply it to the document');
    expect(sys!.content).toContain('Language: write in the language of the document.');
    expect(user!.content).toMatch(/^Document \(/);
  });

  it('applies the length rules by answer shape', () => {
    const s = { ...DEFAULT_SUMMARY_SETTINGS, minLength: 100, maxLength: 0 };
    expect(lengthRule('summary', s)).toBe('Length: at least 100 words.');
    expect(lengthRule('summary', { ...s, depth: 'deep' })).toBe('Length: at least 175 words.');
    expect(lengthRule('summary', { ...s, maxLength: 150, depth: 'deep' })).toBe('Length: between 150 and 150 words.');
    expect(lengthRule('decision', s)).toBe('Length: as long as the items need, no padding.');
    expect(lengthRule('purpose', s)).toBe('Length: exactly one sentence.');
  });

  it('asks for a translation that keeps the HTML', () => {
    const [sys, user] = buildTranslateMessages('<p>Hi</p>', 'ua');
    expect(sys!.content).toContain('into Ukrainian');
    expect(sys!.content).toContain('Keep every HTML tag');
    expect(user!.content).toBe('<p>Hi</p>');
  });
});
