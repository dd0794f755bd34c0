import { describe, expect, it } from 'vitest';
import { DEFAULT_SUMMARY_SETTINGS, PROMPT_KEYS, type PromptKey, type SummarySettings } from '@mbox/shared';
import { AiEngine, OFFLINE_MODEL } from '../engine.js';
import { QMSUM_FIXTURE_MEETINGS, loadQmsumMeeting, toTranscript } from '../eval/qmsum.js';
import { generateOffline } from './engine.js';
import { cleanTurnText, contentTerms, wordCount } from './text.js';

const meetings = QMSUM_FIXTURE_MEETINGS.map((name) => {
  const m = loadQmsumMeeting(name);
  return { name, meeting: m, transcript: toTranscript(m) };
});

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&\w+;/g, ' ').replace(/\s+/g, ' ').trim();

/** Share of the reference's content terms found in the answer: a crude, honest relevance check. */
function overlap(answer: string, reference: string): number {
  const ref = new Set(contentTerms(reference));
  const got = new Set(contentTerms(answer));
  return [...ref].filter((t) => got.has(t)).length / Math.max(1, ref.size);
}

const offline = new AiEngine({ contextTokens: 16_000, concurrency: 2 });

describe('offline engine streaming', () => {
  it('hands its answer over block by block, adding up to the stored HTML', async () => {
    const tokens: string[] = [];
    const result = await offline.generateSummary({
      transcript: meetings[0]!.transcript,
      promptKey: 'summary',
      tier: 'basic',
      onToken: (t) => tokens.push(t),
    });
    expect(tokens.length).toBeGreaterThan(2);
    expect(tokens.join('')).toBe(result.html);
    for (const token of tokens.slice(0, -1)) expect(token).toMatch(/<\/(p|li|ul|ol|h[1-6]|blockquote)>$/i);
  });
});

describe('offline engine on the QMSum meetings', () => {
  for (const { name, meeting, transcript } of meetings) {
    describe(name, () => {
      const speakers = [...new Set(transcript.map((t) => t.speaker))];
      const reference = meeting.general_query_list[0]!.answer;

      it.each(PROMPT_KEYS.map((k) => [k]))('answers %s with non-empty, relevant, safe HTML', async (key: PromptKey) => {
        const customPrompt = key === 'custom' ? meeting.specific_query_list[0]!.query : undefined;
        const r = await offline.generateSummary({ transcript, promptKey: key, customPrompt, tier: 'basic' });
        expect(r.model).toBe(OFFLINE_MODEL);
        expect(r.html).toMatch(/^<(p|ul|ol|h3)>/);
        expect(r.html).not.toMatch(/<script|javascript:|\{vocalsound\}|\{disfmarker\}/i);
        const plain = text(r.html);
        expect(wordCount(plain)).toBeGreaterThan(key === 'purpose' ? 8 : 15);
        // The answer speaks about this meeting: it shares vocabulary with the human summary
        // and names at least one participant (except the one-line overview of big meetings).
        expect(overlap(plain, reference)).toBeGreaterThan(key === 'sentiment' || key === 'purpose' ? 0.02 : 0.05);
        expect(speakers.some((s) => plain.includes(s))).toBe(true);
      });

      it('answers a custom question with passages from the part of the meeting it is about', async () => {
        const q = meeting.specific_query_list[0]!;
        const span = q.relevant_text_span
          .flatMap(([from, to]) => transcript.slice(Number(from), Number(to) + 1))
          .map((t) => cleanTurnText(t.text))
          .join(' ');
        const r = await offline.generateSummary({ transcript, promptKey: 'custom', customPrompt: q.query, tier: 'basic' });
        const quotes = [...r.html.matchAll(/<li><b>[^<]*:<\/b> ([^<]*)<\/li>/g)].map((m) => m[1]!.replace(/&#39;|&quot;|&amp;/g, ' '));
        expect(quotes.length).toBeGreaterThan(0);
        const inSpan = quotes.filter((quote) => {
          const probe = contentTerms(quote).slice(0, 4);
          const spanTerms = new Set(contentTerms(span));
          return probe.length > 0 && probe.every((t) => spanTerms.has(t));
        });
        expect(inSpan.length).toBeGreaterThan(0);
        expect(overlap(text(r.html), q.answer)).toBeGreaterThan(0.1);
      });

      it('groups a "By speaker" summary under each main speaker', async () => {
        const r = await offline.generateSummary({ transcript, promptKey: 'summary', settings: { depth: 'speaker' }, tier: 'basic' });
        const headings = [...r.html.matchAll(/<h3>([^<]+)<\/h3>/g)].map((m) => m[1]);
        expect(headings.length).toBeGreaterThanOrEqual(Math.min(4, speakers.length) - 1);
        for (const h of headings) expect(speakers).toContain(h?.replace(/&#39;/g, "'"));
      });

      it('writes a deep summary in topic sections, longer than the standard one', async () => {
        const standard = await offline.generateSummary({ transcript, promptKey: 'summary', tier: 'basic' });
        const deep = await offline.generateSummary({ transcript, promptKey: 'summary', settings: { depth: 'deep' }, tier: 'basic' });
        expect(deep.html.match(/<h3>/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
        expect(wordCount(text(deep.html))).toBeGreaterThan(wordCount(text(standard.html)));
        const c = await offline.generateSummary({ transcript, promptKey: 'c_summary', tier: 'basic' });
        expect(c.title).toBe('Deep Summary');
        expect(c.html).toBe(deep.html);
      });
    });
  }
});

describe('offline length settings', () => {
  const { transcript } = meetings[2]!;
  const run = (key: PromptKey, settings: Partial<SummarySettings>) =>
    generateOffline({ transcript, promptKey: key, settings: { ...DEFAULT_SUMMARY_SETTINGS, ...settings } });

  it.each([
    [50, 100],
    [200, 250],
    [300, 0],
  ])('keeps a summary between min %i and max %i words', (minLength, maxLength) => {
    const words = wordCount(text(run('summary', { minLength, maxLength })));
    expect(words).toBeGreaterThanOrEqual(minLength * 0.9);
    if (maxLength > 0) expect(words).toBeLessThanOrEqual(maxLength);
  });

  it('caps lists and deep summaries by the maximum', () => {
    expect(wordCount(text(run('action', { maxLength: 100, minLength: 50 })))).toBeLessThanOrEqual(100);
    expect(wordCount(text(run('summary', { depth: 'deep', minLength: 100, maxLength: 150 })))).toBeLessThanOrEqual(150);
    expect(wordCount(text(run('summary', { depth: 'speaker', minLength: 100, maxLength: 150 })))).toBeLessThanOrEqual(150);
  });

  it('answers an empty meeting plainly', () => {
    expect(generateOffline({ transcript: [{ speaker: 'A', text: '{vocalsound} um' }], promptKey: 'summary', settings: DEFAULT_SUMMARY_SETTINGS })).toContain(
      'no usable text',
    );
  });

  it('finds decisions, actions and next steps from cue phrases', () => {
    const small = [
      { speaker: 'Ann', text: 'Welcome. Today we need to choose the supplier for the new laptops.' },
      { speaker: 'Ben', text: 'I compared the offers from Dell and Lenovo, and Lenovo is cheaper by ten percent.' },
      { speaker: 'Ann', text: "Let's go with Lenovo for the laptops then." },
      { speaker: 'Ben', text: 'Yes, agreed.' },
      { speaker: 'Ann', text: 'I will send the purchase order to finance by Friday.' },
      { speaker: 'Ben', text: 'The delivery time is still a problem, nobody knows when the stock arrives.' },
      { speaker: 'Ann', text: 'We will review the delivery dates at the next meeting on Monday.' },
    ];
    const go = (key: PromptKey) => text(generateOffline({ transcript: small, promptKey: key, settings: DEFAULT_SUMMARY_SETTINGS }));
    expect(go('decision')).toContain("Let's go with Lenovo for the laptops then.");
    expect(go('action')).toContain('Ann: I will send the purchase order to finance by Friday.');
    expect(go('next')).toContain('next meeting on Monday');
    expect(go('issue')).toContain('delivery time is still a problem');
    expect(go('goal')).toContain('choose the supplier');
  });
});
