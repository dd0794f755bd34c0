import { describe, expect, it } from 'vitest';
import { DEFAULT_SUMMARY_SETTINGS, PROMPT_KEYS, type PromptKey, type SummarySettings } from '@mbox/shared';
import { AiEngine, OFFLINE_MODEL } from '../engine.js';
import { QMSUM_FIXTURE_MEETINGS, loadQmsumMeeting, toTranscript } from '../eval/qmsum.js';
import type { MinutesItem } from '../minutes.js';
import type { TranscriptTurn } from '../types.js';
import { generateOffline, offlineMinutes, type OfflineRequest } from './engine.js';
import { cleanTurnText, contentTerms, wordCount } from './text.js';

// Meetings as the server hands them over: one line every 10 seconds from Monday 4 March 2024, 09:00 UTC.
const START = Date.UTC(2024, 2, 4, 9);
const timed = (turns: readonly TranscriptTurn[]): TranscriptTurn[] => turns.map((t, i) => ({ ...t, spokenAt: START + i * 10_000 }));

const meetings = QMSUM_FIXTURE_MEETINGS.map((name) => {
  const m = loadQmsumMeeting(name);
  return { name, meeting: m, transcript: timed(toTranscript(m)) };
});

/** Visible text of an answer: tags and citation marks out. */
const text = (html: string) =>
  html
    .replace(/<sup class="cite"[^>]*>.*?<\/sup>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&\w+;|&#\d+;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Share of the reference's content terms found in the answer: a crude, honest relevance check. */
function overlap(answer: string, reference: string): number {
  const ref = new Set(contentTerms(reference));
  const got = new Set(contentTerms(answer));
  return [...ref].filter((t) => got.has(t)).length / Math.max(1, ref.size);
}

function items(request: OfflineRequest): MinutesItem[] {
  return offlineMinutes(request).blocks.flatMap((b) => (b.kind === 'list' ? b.items : b.kind === 'paragraph' ? [b.item] : []));
}

const run = (transcript: readonly TranscriptTurn[], promptKey: PromptKey, settings: Partial<SummarySettings> = {}, extra: Partial<OfflineRequest> = {}) =>
  generateOffline({ transcript, promptKey, settings: { ...DEFAULT_SUMMARY_SETTINGS, ...settings }, ...extra });

const offline = new AiEngine({ contextTokens: 16_000, concurrency: 2 });

/** A small meeting with one of everything (Tuesday 5 March 2024). */
const small = [
  { speaker: 'Ann', text: 'Welcome. Today we need to choose the supplier for the new laptops.' },
  { speaker: 'Ben', text: 'I compared the offers from Dell and Lenovo; Lenovo is cheaper by ten percent.' },
  { speaker: 'Ann', text: "Let's go with Lenovo for the laptops then." },
  { speaker: 'Ben', text: 'Yes, agreed.' },
  { speaker: 'Ann', text: 'Um, I will send the the purchase order to finance by Friday.' },
  { speaker: 'Ben', text: 'The delivery time is still a problem, nobody knows when the stock arrives.' },
  { speaker: 'Ann', text: 'Ben, can you check the warranty terms with Lenovo before next Tuesday?' },
  { speaker: 'Ben', text: 'Sure, I can do that.' },
  { speaker: 'Ann', text: 'We will review the delivery dates at the next meeting on Monday.' },
  { speaker: 'Ben', text: "I'm going to tell you that's supposed to be a tiger." },
  { speaker: 'Ann', text: 'How much budget do we have left for accessories?' },
  { speaker: 'Ben', text: "I don't know, finance hasn't told us yet." },
].map((t, i) => ({ ...t, id: `m${i}`, spokenAt: Date.UTC(2024, 2, 5, 9) + i * 60_000 }));
const go = (key: PromptKey, extra: Partial<OfflineRequest> = {}) => text(run(small, key, {}, { timeZone: 'Europe/Berlin', ...extra }).html);

describe('each prompt type does its own job (a small meeting)', () => {
  it('Key decisions: what was agreed and who decided, never a question', () => {
    const answer = go('decision');
    expect(answer).toContain('Ann, agreed by Ben: The team will go with Lenovo for the laptops');
    expect(answer).not.toContain('?');
  });

  it('Key decisions of a three-line meeting', () => {
    const three = small.slice(2, 5);
    expect(text(run(three, 'decision').html)).toContain('Ann, agreed by Ben: The team will go with Lenovo for the laptops.');
  });

  it('Action Items: owner, task and due date relative to the meeting; no chit-chat', () => {
    const answer = go('action');
    expect(answer).toContain('Ann: Send the purchase order to finance — due Fri, Mar 8, 2024.');
    // Asked of Ben, who accepted in the next line.
    expect(answer).toContain('Ben: Check the warranty terms with Lenovo — due Tue, Mar 12, 2024.');
    expect(answer).not.toMatch(/tiger|choose the supplier/);
  });

  it('Next Steps, Unresolved Issues, Missing Information and goals each from their own cues', () => {
    expect(go('next')).toContain('The team will review the delivery dates at the next meeting on Monday.');
    expect(go('issue')).toContain('The delivery time is still a problem');
    expect(go('missing')).toContain('Ann: How much budget does the team have left for accessories? Ben did not know.');
    expect(go('goal')).toContain('Today the team needs to choose the supplier for the new laptops.');
  });

  it('Main topics: labelled segments with their time ranges in the owner’s time zone', () => {
    const topics = offlineMinutes({ transcript: small, promptKey: 'topic', settings: DEFAULT_SUMMARY_SETTINGS, timeZone: 'Europe/Berlin' });
    const list = topics.blocks[0]!;
    expect(list.kind === 'list' && list.ordered).toBe(true);
    const leads = list.kind === 'list' ? list.items.map((i) => i.lead) : [];
    expect(leads.length).toBeGreaterThanOrEqual(1);
    expect(leads[0]).toMatch(/^[A-Z][\w ]+ \(10:00–10:\d\d\)$/);
  });

  it('a custom question is answered by the reply, not by the question itself', () => {
    const answer = items({ transcript: small, promptKey: 'custom', settings: DEFAULT_SUMMARY_SETTINGS, customPrompt: 'How much budget is left for accessories?' });
    expect(answer.some((i) => i.lines.includes(11) && i.lead === 'Ben' && /finance/.test(i.text))).toBe(true);
    expect(answer.every((i) => !i.text.endsWith('?'))).toBe(true);
  });

  it('every point cites the lines it came from', () => {
    for (const key of PROMPT_KEYS.filter((k) => k !== 'sentiment')) {
      const { html, lines } = run(small, key, {}, { customPrompt: 'Which supplier was chosen?' });
      expect(lines.length, key).toBeGreaterThan(0);
      for (const line of lines) expect(small[line], key).toBeDefined();
      expect(html, key).toContain('<sup class="cite" data-cite="1');
    }
  });
});

describe('Action Items from real lines (Bmr026, IS1006b)', () => {
  const meeting = [
    ['PhD F', "and so that 's where I 'm putting it but I 'll {disfmarker} I 'll send it out to the list telling people to look at it ."],
    ['Grad A', "Yeah , I haven't done that ."],
    ['PhD D', 'Just {disfmarker} You know we want to try things like deltas on the tandem features . And so you h have to multiply everything by two or three .'],
    ['Professor B', 'Sure .'],
    ['Marketing', 'I think we should aim at the young people .'],
    ['Project Manager', 'Yeah , I agree .'],
    ['Grad A', "Let 's read digits and go ."],
    ['Professor B', "Why don't we just start with that ."],
  ].map(([speaker, text]) => ({ speaker: speaker!, text: text! }));

  it('lists commitments and work suggested, never the routine of the meeting or what "you" generally do', () => {
    const listed = items({ transcript: meeting, promptKey: 'action', settings: DEFAULT_SUMMARY_SETTINGS }).map((i) => `${i.lead}: ${i.text}`);
    expect(listed).toEqual(['PhD F: Send it out to the list telling people to look at it.', 'Unassigned: Aim at the young people.']);
  });
});

describe('offline engine on the QMSum fixture meetings', () => {
  for (const { name, meeting, transcript } of meetings) {
    describe(name, () => {
      const speakers = [...new Set(transcript.map((t) => t.speaker))];
      const reference = meeting.general_query_list[0]!.answer;
      const longLines = new Set(transcript.map((t) => cleanTurnText(t.text)).filter((t) => wordCount(t) > 25));

      it.each(PROMPT_KEYS.map((k) => [k]))('answers %s with relevant notes citing their lines, none a long verbatim line', (key: PromptKey) => {
        const customPrompt = key === 'custom' ? meeting.specific_query_list[0]!.query : undefined;
        const request = { transcript, promptKey: key, settings: DEFAULT_SUMMARY_SETTINGS, customPrompt };
        const { html, lines } = generateOffline(request);
        expect(html).toMatch(/^<(p|ul|ol|h3)>/);
        expect(html).not.toMatch(/<script|javascript:|\{vocalsound\}|\{disfmarker\}/i);
        const plain = text(html);
        // A meeting may assign one task only (ES2004a, a kick-off): action lists can be short.
        expect(wordCount(plain)).toBeGreaterThan(key === 'purpose' ? 8 : key === 'action' ? 5 : 15);
        // A hearing (education_4) decides little: its few decisions share few words with the summary of what was said.
        expect(overlap(plain, reference)).toBeGreaterThan(['sentiment', 'purpose', 'action', 'decision'].includes(key) ? 0.02 : 0.05);
        if (key !== 'topic') expect(speakers.some((s) => plain.includes(s))).toBe(true);
        expect(lines.length).toBeGreaterThan(0);
        for (const item of items(request)) {
          expect(longLines.has(item.text)).toBe(false);
          // A listed point is one note (plus who answered); summary paragraphs, answers to questions and
          // sentiment readings join several.
          if (!['summary', 'custom', 'sentiment'].includes(key)) expect(wordCount(item.text)).toBeLessThanOrEqual(32);
        }
      });

      it('answers a custom question with passages from the part of the meeting it is about', () => {
        const q = meeting.specific_query_list[0]!;
        const span = new Set(q.relevant_text_span.flatMap(([from, to]) => Array.from({ length: Number(to) - Number(from) + 1 }, (_, k) => Number(from) + k)));
        const answer = items({ transcript, promptKey: 'custom', settings: DEFAULT_SUMMARY_SETTINGS, customPrompt: q.query });
        expect(answer.length).toBeGreaterThan(0);
        expect(answer.some((i) => i.lines.some((l) => span.has(l)))).toBe(true);
        expect(overlap(answer.map((i) => i.text).join(' '), q.answer)).toBeGreaterThan(0.1);
      });

      it('groups a "By speaker" summary under each main speaker', () => {
        const html = run(transcript, 'summary', { depth: 'speaker' }).html;
        const headings = [...html.matchAll(/<h3>([^<]+)<\/h3>/g)].map((m) => m[1]);
        expect(headings.length).toBeGreaterThanOrEqual(Math.min(4, speakers.length) - 1);
        for (const h of headings) expect(speakers).toContain(h?.replace(/&#39;/g, "'"));
      });

      it('writes a deep summary in timed topic sections, longer than the standard one', () => {
        const standard = run(transcript, 'summary').html;
        const deep = run(transcript, 'summary', { depth: 'deep' }).html;
        const headings = [...deep.matchAll(/<h3>([^<]+)<\/h3>/g)].map((m) => m[1]!);
        expect(headings.length).toBeGreaterThanOrEqual(2);
        for (const h of headings) expect(h).toMatch(/\(\d+:\d\d–\d+:\d\d\)$/);
        expect(wordCount(text(deep))).toBeGreaterThan(wordCount(text(standard)));
        expect(run(transcript, 'c_summary').html).toBe(deep);
      });

      it('never lists ice-breaker chit-chat or questions as decisions and actions', () => {
        const decisions = text(run(transcript, 'decision').html);
        const actions = text(run(transcript, 'action').html);
        expect(actions).not.toMatch(/tiger|favourite animal/i);
        for (const item of items({ transcript, promptKey: 'decision', settings: DEFAULT_SUMMARY_SETTINGS })) expect(item.text).not.toMatch(/\?$/);
        expect(decisions.length).toBeGreaterThan(0);
      });
    });
  }
});

describe('notes a person would keep (QMSum fixtures)', () => {
  const es2004a = meetings.find((m) => m.name === 'ES2004a')!.transcript;
  const education4 = meetings.find((m) => m.name === 'education_4')!.transcript;
  const speakers = new Set(es2004a.map((t) => t.speaker));

  it('Key decisions find the price, the buttons with a screen menu and the plastic, each with who decided', () => {
    const decisions = items({ transcript: es2004a, promptKey: 'decision', settings: DEFAULT_SUMMARY_SETTINGS });
    const find = (pattern: RegExp) => decisions.find((d) => pattern.test(d.text));
    expect(find(/selling price at twenty five Euros\.$/)?.lead).toBe('Project Manager');
    expect(find(/basic buttons/)?.lead).toMatch(/^Project Manager, agreed by /);
    expect(find(/lightweight plastic\.$/)?.lead).toMatch(/^Marketing, agreed by /);
    for (const d of decisions) {
      expect(d.text).not.toMatch(/\?$|dog|eagle|tiger/i);
      expect(speakers.has(d.lead!.split(', agreed by ')[0]!)).toBe(true);
    }
  });

  it('Action Items are commitments with an owner, never ice-breaker chatter', () => {
    const actions = items({ transcript: es2004a, promptKey: 'action', settings: DEFAULT_SUMMARY_SETTINGS });
    expect(actions.map((a) => `${a.lead}: ${a.text}`)).toContain("Team (Project Manager): Do the team's individual things.");
    for (const a of actions) expect(a.text).not.toMatch(/tiger|eagle|animal|intrepid/i);
  });

  it('Main topics have short labels, none a run of animals', () => {
    const topics = items({ transcript: es2004a, promptKey: 'topic', settings: DEFAULT_SUMMARY_SETTINGS });
    for (const t of topics) {
      expect(wordCount(t.lead!.replace(/\(.*\)$/, ''))).toBeLessThanOrEqual(4);
      expect(t.lead).not.toMatch(/eagle|dog|crocodile|tiger/i);
      expect(t.text.length).toBeGreaterThan(0);
    }
    const labels = items({ transcript: education4, promptKey: 'topic', settings: DEFAULT_SUMMARY_SETTINGS }).map((t) => t.lead!.replace(/ \(.*\)$/, '').toLowerCase());
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('the Summary of a 95-minute meeting is bulleted under its topics, from more than its opening', () => {
    const minutes = offlineMinutes({ transcript: education4, promptKey: 'summary', settings: DEFAULT_SUMMARY_SETTINGS });
    const headings = minutes.blocks.filter((b) => b.kind === 'heading');
    const lists = minutes.blocks.filter((b) => b.kind === 'list');
    expect(headings.length).toBeGreaterThanOrEqual(2);
    expect(lists.length).toBe(headings.length);
    const lines = lists.flatMap((b) => (b.kind === 'list' ? b.items.flatMap((i) => i.lines) : []));
    expect(Math.max(...lines)).toBeGreaterThan(education4.length / 2);
  });

  it('the Summary of a hearing opens with what the meeting is and never lists the same note twice', () => {
    // A chair's opening and a hearing of long turns whose villages each ask for something of the bus service.
    const villages = ['Ashby', 'Brompton', 'Carlow', 'Dunmore', 'Elston', 'Farley', 'Glenby', 'Harwick', 'Ilford', 'Kelso', 'Linton', 'Marston'];
    const needs = ['an evening bus to the hospital', 'cheaper bus fares for students', 'a Sunday bus to the market', 'more bus drivers on early shifts', 'a bus shelter by the school', 'a faster bus to the station'];
    const need = (i: number) => `${villages[i % villages.length]} needs ${needs[i % needs.length]}, and the bus service there has lost riders since the fares rose.`;
    const hearing = [
      { speaker: 'Ruth', text: `Good morning. Welcome to the fourth meeting of the Northfield Scrutiny Panel. ${[0, 1, 2, 3].map(need).join(' ')}` },
      ...Array.from({ length: 48 }, (_, i) => ({ speaker: ['Omar', 'Lena', 'Ruth'][i % 3]!, text: `${need(i + 4)} ${need(i + 11)}` })),
    ];
    const notes = items({ transcript: hearing, promptKey: 'summary', settings: DEFAULT_SUMMARY_SETTINGS }).slice(1);
    expect(notes[0]!.text).toBe('Welcome to the fourth meeting of the Northfield Scrutiny Panel.');
    const texts = notes.map((n) => n.text);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('a custom question is answered by the lines that address it', () => {
    const answer = items({ transcript: es2004a, promptKey: 'custom', settings: DEFAULT_SUMMARY_SETTINGS, customPrompt: 'What selling price did they set?' });
    expect(answer[0]!.text).toMatch(/twenty five Euros/);
    for (const a of answer) expect(a.text).not.toMatch(/\?$|^That was fun/);
  });

  it('keeps names in their case and writes no verbatim line of more than 25 words', () => {
    const longLines = new Set(education4.map((t) => cleanTurnText(t.text)).filter((t) => wordCount(t) > 25));
    const summary = items({ transcript: education4, promptKey: 'summary', settings: DEFAULT_SUMMARY_SETTINGS });
    for (const item of summary) {
      expect(longLines.has(item.text)).toBe(false);
      expect(wordCount(item.text)).toBeLessThanOrEqual(26);
    }
    expect(summary.map((i) => i.text).join(' ')).toMatch(/Nick Williams|Sharon Davies|Dr Ian Johnson/);
  });
});

describe('offline settings', () => {
  const { transcript } = meetings[2]!;

  it.each([
    ['standard', 100, 200],
    ['deep', 100, 200],
    ['speaker', 100, 200],
    ['standard', 50, 100],
    // Its notes fall under fewer topics than the length allowed headings for: the words left go to more notes.
    ['standard', 80, 120],
    ['deep', 300, 0],
  ] as const)('a %s summary keeps between min %i and max %i words (±10 %%)', { timeout: 30_000 }, (depth, minLength, maxLength) => {
    const words = wordCount(text(run(transcript, 'summary', { depth, minLength, maxLength }).html));
    expect(words).toBeGreaterThanOrEqual(minLength * 0.9);
    if (maxLength > 0) expect(words).toBeLessThanOrEqual(maxLength * 1.1);
  });

  it('depth changes the answer', { timeout: 30_000 }, () => {
    const answers = (['standard', 'deep', 'speaker'] as const).map((depth) => run(transcript, 'summary', { depth }).html);
    expect(new Set(answers).size).toBe(3);
  });

  it('caps lists by the maximum', () => {
    expect(wordCount(text(run(transcript, 'action', { maxLength: 100, minLength: 50 }).html))).toBeLessThanOrEqual(110);
    expect(wordCount(text(run(transcript, 'issue', { maxLength: 100, minLength: 50 }).html))).toBeLessThanOrEqual(110);
  });

  it('Regenerate (a new variant) picks another selection; the same variant the same one', { timeout: 60_000 }, () => {
    for (const key of ['summary', 'decision', 'issue'] as const) {
      const first = run(transcript, key, {}, { variant: 0 }).html;
      expect(run(transcript, key, {}, { variant: 1 }).html, key).not.toBe(first);
      expect(run(transcript, key, {}, { variant: 0 }).html, key).toBe(first);
    }
  });

  it('answers an empty meeting plainly', () => {
    expect(run([{ speaker: 'A', text: '{vocalsound} um' }], 'summary').html).toContain('no usable text');
  });
});

describe('meetings in other languages', () => {
  const german = [
    'Wir müssen heute den Lieferanten für die neuen Laptops auswählen.',
    'Ich habe die Angebote von Dell und Lenovo verglichen, Lenovo ist zehn Prozent günstiger.',
    'Dann nehmen wir Lenovo für die Laptops.',
    'Ja, einverstanden.',
    'Ich schicke die Bestellung bis Freitag an die Buchhaltung.',
    'Die Lieferzeit ist noch ein Problem.',
  ];
  const japanese = ['今日は新しいノートパソコンの業者を決める必要があります。', 'デルとレノボの見積もりを比較しました。', 'ではレノボにしましょう。', 'はい、賛成です。', '金曜日までに経理に発注書を送ります。'];

  it.each([
    ['German', german],
    ['Japanese', japanese],
  ])('%s: says the engine reads English and quotes the lines it cites, for every prompt type', (_language, lines) => {
    const transcript = lines.map((t, i) => ({ speaker: i % 2 ? 'Ben' : 'Ann', text: t }));
    for (const key of PROMPT_KEYS) {
      const { html, lines: cited } = run(transcript, key, {}, { customPrompt: 'Welcher Lieferant wurde gewählt?' });
      expect(html, key).toContain('does not seem to be in English');
      expect(cited.length, key).toBeGreaterThan(0);
      // No English sentiment reading of German words ("die"), no invented decisions.
      expect(html, key).not.toMatch(/Overall tone|agreed by/);
    }
  });
});

describe('documents (the tools summarizer)', () => {
  const article = [
    'Nick Williams, the council leader, announced new bike lanes for Cardiff on Monday.',
    'The lanes will connect the city centre with Cardiff Bay and cost four million pounds.',
    'Sian Gwenllian said the plan ignores the valleys, where buses are the only option.',
    'Work starts in spring and should finish before the end of next year.',
  ];
  const turns = article.map((text) => ({ speaker: 'The text', text }));

  it('keeps names in their case, cites nothing and does not return a short text word for word', () => {
    const { html, lines } = run(turns, 'summary', {}, { material: 'document' });
    expect(lines).toEqual([]);
    expect(html).not.toContain('data-cite');
    const plain = text(html);
    expect(plain).not.toMatch(/nick williams|sian gwenllian|cardiff bay/);
    // A name with an apposition stays the subject of its sentence.
    expect(plain).toContain('Nick Williams, the council leader, announced new bike lanes');
    expect(wordCount(plain)).toBeLessThan(wordCount(article.join(' ')));
    expect(plain).not.toContain(article.join(' '));
  });

  it('writes topic headings from noun phrases, in their written case', () => {
    const long = Array.from({ length: 6 }, (_, k) => [
      `Section ${k}: the budget of the Cardiff bike lanes was debated again by the council.`,
      'Nick Williams defended the budget and the bike lanes in front of the council.',
      'Sian Gwenllian asked about buses in the valleys and the timetable of the buses.',
      'The buses in the valleys run every hour, and the timetable changes in May.',
    ]).flat();
    const html = run(long.map((t) => ({ speaker: 'The article', text: t })), 'summary', { depth: 'deep' }, { material: 'document' }).html;
    const headings = [...html.matchAll(/<h3>([^<]+)<\/h3>/g)].map((m) => m[1]!);
    expect(headings.length).toBeGreaterThan(0);
    for (const h of headings) {
      expect(h).toMatch(/^[A-Z]/);
      expect(h).not.toMatch(/nick|sian|Part \d/);
    }
  });
});

describe('offline engine through AiEngine', () => {
  it('hands its answer over block by block and returns the lines it cites', async () => {
    const tokens: string[] = [];
    const result = await offline.generateSummary({ transcript: meetings[0]!.transcript, promptKey: 'summary', tier: 'basic', onToken: (t) => tokens.push(t) });
    expect(result.model).toBe(OFFLINE_MODEL);
    expect(tokens.length).toBeGreaterThan(2);
    expect(tokens.join('')).toBe(result.html);
    for (const token of tokens.slice(0, -1)) expect(token).toMatch(/<\/(p|li|ul|ol|h[1-6]|blockquote)>$/i);
    expect(result.citedLines.length).toBeGreaterThan(0);
    for (const line of result.citedLines) expect(meetings[0]!.transcript[line]).toBeDefined();
  });
});
