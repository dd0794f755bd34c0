import { describe, expect, it } from 'vitest';
import type { AskAllScope } from '@mbox/shared';
import { countTokens } from '../../ai/index.js';
import type { FoundLine } from '../search/lines.js';
import { buildAllMeetingsRequest, NOTHING_MATCHES_ALL, offlineAllAnswer, scopeSentence, type LineWindow } from './all-meetings.js';
import { ASK_CONTEXT_TOKENS } from './service.js';

const timeZone = 'America/New_York';
const DAY = 86_400_000;
const START = Date.parse('2026-10-12T14:00:00Z');

function line(meeting: number, i: number, text: string, score = 0): FoundLine {
  return {
    messageId: `m${meeting}-l${i}`,
    meetingId: `m${meeting}`,
    meetingTitle: `Meeting ${meeting}`,
    meetingDate: START + meeting * DAY,
    speaker: ['Alice', 'Bob'][i % 2]!,
    text,
    spokenAt: START + meeting * DAY + i * 60_000,
    score,
  };
}

const scope: AskAllScope = { range: null, meetings: 12, encryptedMeetings: 2 };

describe('what an answer across meetings says it searched', () => {
  it('names the period, the meetings searched and the encrypted ones left out', () => {
    expect(scopeSentence(scope)).toBe('Searched all 12 of your meetings. 2 encrypted meetings were left out (their text is sealed).');
    expect(
      scopeSentence({ range: { from: 1, to: 2, label: 'Oct 1, 2026 – Oct 31, 2026', said: 'last month' }, meetings: 1, encryptedMeetings: 1 }),
    ).toBe('Searched 1 meeting, Oct 1, 2026 – Oct 31, 2026 (“last month”). 1 encrypted meeting was left out (their text is sealed).');
    expect(scopeSentence({ range: null, meetings: 0, encryptedMeetings: 0 })).toBe('You have no meetings to search yet.');
  });
});

describe('the offline answer across meetings', () => {
  it('quotes the best lines grouped by meeting, meetings by their best line, lines in spoken order, numbered across meetings', () => {
    const hits = [
      line(2, 7, 'We decided the price goes to thirty dollars.', 9),
      line(1, 3, 'Pricing was discussed with finance.', 6),
      line(2, 2, 'Pricing first, then hiring.', 5),
      line(3, 1, 'The pricing page has old screenshots.', 2.5),
      line(4, 1, 'Price of coffee went up.', 1),
    ];
    const { parts, citations } = offlineAllAnswer(hits, { scope, timeZone, searchable: true });
    const answer = parts.join('');
    // Under 30 % of the best (9) is left out.
    expect(citations.map((c) => c.messageId)).toEqual(['m2-l2', 'm2-l7', 'm1-l3']);
    expect(citations.map((c) => c.n)).toEqual([1, 2, 3]);
    expect(answer).toBe(
      [
        'Searched all 12 of your meetings. 2 encrypted meetings were left out (their text is sealed).',
        '',
        'These 3 lines from 2 meetings match your question best:',
        '',
        'Meeting 2 · Wed, Oct 14, 2026',
        '[1] Alice (10:02 AM): “Pricing first, then hiring.”',
        '[2] Bob (10:07 AM): “We decided the price goes to thirty dollars.”',
        '',
        'Meeting 1 · Tue, Oct 13, 2026',
        '[3] Bob (10:03 AM): “Pricing was discussed with finance.”',
      ].join('\n'),
    );
  });

  it('takes at most 3 lines of one meeting, so one long meeting does not fill the answer', () => {
    const hits = Array.from({ length: 6 }, (_, i) => line(1, i, `Pricing remark ${i}.`, 10 - i)).concat(line(2, 0, 'Pricing elsewhere.', 5));
    const { citations } = offlineAllAnswer(hits, { scope, timeZone, searchable: true });
    expect(citations.filter((c) => c.meetingId === 'm1')).toHaveLength(3);
    expect(citations.map((c) => c.meetingId)).toContain('m2');
  });

  it('says so when nothing matches', () => {
    expect(offlineAllAnswer([], { scope, timeZone, searchable: true }).parts.join('')).toContain(NOTHING_MATCHES_ALL);
  });
});

describe('the LLM request across meetings', () => {
  const prepared = { question: 'What did we decide about pricing?', scope, timeZone };

  it('numbers the windows under their meetings, oldest meeting first, marking gaps', () => {
    const lines = Array.from({ length: 10 }, (_, i) => line(1, i, `Line ${i} about pricing.`));
    const later = line(2, 4, 'We decided the price goes to thirty dollars.');
    const windows: LineWindow[] = [
      { hit: later, lines: [later] },
      { hit: lines[2]!, lines: lines.slice(1, 4) },
      { hit: lines[7]!, lines: lines.slice(6, 9) },
    ];
    const { messages, numbered } = buildAllMeetingsRequest(windows, prepared, 100_000);
    expect(numbered.map((l) => l.messageId)).toEqual(['m1-l1', 'm1-l2', 'm1-l3', 'm1-l6', 'm1-l7', 'm1-l8', 'm2-l4']);
    const content = messages.at(-1)!.content;
    expect(content).toContain(
      [
        'Meeting “Meeting 1”, Tue, Oct 13, 2026:',
        '[1] 10:01 AM Bob: Line 1 about pricing.',
        '[2] 10:02 AM Alice: Line 2 about pricing.',
        '[3] 10:03 AM Bob: Line 3 about pricing.',
        '…',
        '[4] 10:06 AM Alice: Line 6 about pricing.',
      ].join('\n'),
    );
    expect(content).toContain('\n\nMeeting “Meeting 2”, Wed, Oct 14, 2026:\n[7] 10:04 AM Alice: We decided the price goes to thirty dollars.');
    expect(content).toMatch(/^Searched all 12 of your meetings\./);
    expect(content).toMatch(/\n\nQuestion: What did we decide about pricing\?$/);
  });

  it('fills the token budget with the best windows first, never past it', () => {
    const long = (m: number, i: number, score: number) =>
      line(m, i, `Remark ${m}-${i} about pricing, schedules, rooms, snacks, weekend plans and the weather that goes on for a while.`, score);
    const windows: LineWindow[] = Array.from({ length: 60 }, (_, m) => {
      const hit = long(m, 5, 60 - m);
      return { hit, lines: [long(m, 3, 0), long(m, 4, 0), hit, long(m, 6, 0), long(m, 7, 0)] };
    });
    for (const budget of [ASK_CONTEXT_TOKENS, 1500]) {
      const { messages, numbered } = buildAllMeetingsRequest(windows, prepared, budget);
      const sent = messages.reduce((n, m) => n + countTokens(m.content), 0);
      expect(sent).toBeLessThanOrEqual(Math.min(ASK_CONTEXT_TOKENS, budget));
      expect(sent).toBeGreaterThan(Math.min(ASK_CONTEXT_TOKENS, budget) * 0.85);
      // The best hit's whole window went in; the worst meetings did not.
      expect(numbered.filter((l) => l.meetingId === 'm0')).toHaveLength(5);
      expect(numbered.some((l) => l.meetingId === 'm59')).toBe(false);
    }
  });
});
