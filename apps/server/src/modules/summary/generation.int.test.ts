import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DAILY_LIMIT_REACHED,
  PROMPT_KEYS,
  PROMPTS,
  SUMMARY_UNAVAILABLE_MESSAGE,
  type Message,
  type PromptKey,
  type Summary,
  type SummaryList,
  type SummaryStreamEvent,
} from '@mbox/shared';
import { loadQmsumMeeting } from '../../ai/eval/qmsum.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium, seedMeeting, type SeedLine } from '../../test/fixtures.js';
import { startOpenAiTestServer, testLlmConfig, type OpenAiTestServer } from '../../test/openai-server.js';
import { AI_BUSY, AI_TIMEOUT, AI_UNAVAILABLE } from './ai-errors.js';
import { CUSTOM_PROMPT_PREMIUM } from './generation.js';

type ErrorBody = { message: string; code: string; data: { field?: string; httpStatus: number } };

const es2004a: SeedLine[] = loadQmsumMeeting('ES2004a').meeting_transcripts.map((t) => ({ speaker: t.speaker, text: t.content }));
const small: SeedLine[] = ['Ana', 'Bo', 'Ana', 'Bo', 'Ana', 'Bo'].map((speaker, i) => ({
  speaker,
  text: [
    'Um, so we need to pick the launch date today.',
    'I think March third works for the the engineering team.',
    'Marketing wants a week more for the campaign.',
    'Then we launch on March tenth, decided.',
    'Bo will send the plan to marketing by Friday.',
    'We still do not know the final budget.',
  ][i]!,
}));
const question = 'What did the team decide about the remote control design?';

/** The whole stream of a generation through the tRPC subscription, as the web app receives it. */
function collectStream(app: TestApp, token: string, input: { meetKey: string; promptKey: PromptKey; customPrompt?: string }) {
  const events: SummaryStreamEvent[] = [];
  const done = new Promise<Summary>((resolve, reject) => {
    const sub = app.trpc(token).summary.generateStream.subscribe(input, {
      onData: (event) => {
        events.push(event);
        if (event.type === 'done') {
          sub.unsubscribe();
          resolve(event.summary);
        }
      },
      onError: (error) => {
        sub.unsubscribe();
        reject(error);
      },
    });
  });
  return { events, done };
}

describe('AI generation calls with the offline engine', () => {
  let app: TestApp;
  let basic: string;
  let premium: string;
  let other: string;
  let meetKey: string;
  beforeAll(async () => {
    app = await startTestApp();
    basic = await app.signIn('basic@example.com');
    premium = await app.signIn('premium@example.com');
    other = await app.signIn('other@example.com');
    await makePremium(app, 'premium@example.com');
    ({ meetingKey: meetKey } = await seedMeeting(app, premium, 'es2004a', es2004a));
  });
  afterAll(() => app.close());

  it('generates, stores and returns every prompt type on a QMSum meeting, and marks it analysed', async () => {
    for (const promptKey of PROMPT_KEYS) {
      const body = promptKey === 'custom' ? { meetKey, promptKey, customPrompt: question } : { meetKey, promptKey };
      const response = await app.rest<Summary>('POST', '/v1/prompts', { token: premium, body });
      expect(response.status, promptKey).toBe(200);
      const summary = response.body;
      expect(summary).toMatchObject({ type: 'summary', promptKey, encrypted: false, translations: {} });
      expect(summary.title).toBe(promptKey === 'custom' ? question : PROMPTS[promptKey].title);
      expect(summary.customPrompt).toBe(promptKey === 'custom' ? question : '');
      expect(summary.text.replace(/<[^>]+>/g, '').trim().length, promptKey).toBeGreaterThan(20);
      const row = await app.deps.db.summary.findUniqueOrThrow({ where: { id: summary.docId } });
      expect(row).toMatchObject({ meetingId: meetKey, promptKey, text: summary.text, title: summary.title });
      expect(row.settings).toMatchObject({ depth: 'standard', minLength: 200, maxLength: 0, model: 'mbox-offline' });
    }
    const list = await app.rest<SummaryList>('GET', `/v1/summary-list/${meetKey}`, { token: premium });
    expect(list.body.summaries.map((s) => s.promptKey).sort()).toEqual([...PROMPT_KEYS].sort());
    expect((await app.deps.db.meeting.findUniqueOrThrow({ where: { id: meetKey } })).isAnalyzed).toBe(true);
    // Asked again, a prompt replaces its summary rather than adding one.
    const again = await app.rest<Summary>('POST', '/v1/prompts', { token: premium, body: { meetKey, promptKey: 'summary' } });
    expect(again.body.docId).toBe(list.body.summaries.find((s) => s.promptKey === 'summary')?.docId);
    expect(await app.deps.db.summary.count({ where: { meetingId: meetKey } })).toBe(PROMPT_KEYS.length);
  });

  it('streams the generation to the tRPC subscriber and stores it like POST /v1/prompts', async () => {
    const { meetingKey } = await seedMeeting(app, premium, 'streamed', small);
    const { events, done } = collectStream(app, premium, { meetKey: meetingKey, promptKey: 'decision' });
    const summary = await done;
    expect(events.filter((e) => e.type === 'token').map((e) => (e.type === 'token' ? e.text : '')).join('')).toBe(summary.text);
    expect(events.at(-1)).toEqual({ type: 'done', summary });
    const row = await app.deps.db.summary.findUniqueOrThrow({ where: { id: summary.docId } });
    expect(row.text).toBe(summary.text);
  });

  it('refuses to generate while summaries are disabled, with the alert text of product.md, Errors', async () => {
    const { meetingKey } = await seedMeeting(app, premium, 'tiny', small.slice(0, 3));
    const refused = await app.rest<ErrorBody>('POST', '/v1/prompts', { token: premium, body: { meetKey: meetingKey, promptKey: 'summary' } });
    expect(refused).toMatchObject({ status: 412, body: { code: 'PRECONDITION_FAILED', message: SUMMARY_UNAVAILABLE_MESSAGE } });
    const streamed = collectStream(app, premium, { meetKey: meetingKey, promptKey: 'summary' });
    await expect(streamed.done).rejects.toMatchObject({ message: SUMMARY_UNAVAILABLE_MESSAGE });
    expect(await app.deps.db.summary.count({ where: { meetingId: meetingKey } })).toBe(0);
  });

  it('keeps custom questions for premium users: 403 for basic, validated length', async () => {
    const { meetingKey } = await seedMeeting(app, basic, 'basic-small', small);
    const refused = await app.rest<ErrorBody>('POST', '/v1/prompts', {
      token: basic,
      body: { meetKey: meetingKey, promptKey: 'custom', customPrompt: 'When do we launch?' },
    });
    expect(refused).toMatchObject({ status: 403, body: { code: 'FORBIDDEN', message: CUSTOM_PROMPT_PREMIUM } });
    const stream = collectStream(app, basic, { meetKey: meetingKey, promptKey: 'custom', customPrompt: 'When do we launch?' });
    await expect(stream.done).rejects.toMatchObject({ data: { httpStatus: 403 } });

    for (const [body, field] of [
      [{ meetKey, promptKey: 'custom', customPrompt: 'Why?' }, 'customPrompt'],
      [{ meetKey, promptKey: 'custom' }, 'customPrompt'],
      [{ meetKey, promptKey: 'summary', customPrompt: 'When do we launch?' }, 'customPrompt'],
      [{ meetKey, promptKey: 'tldr' }, 'promptKey'],
    ] as const) {
      const bad = await app.rest<ErrorBody>('POST', '/v1/prompts', { token: premium, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.data.field).toBe(field);
    }
  });

  it('regenerates a summary by its docId; settings need premium and are validated', async () => {
    const { meetingKey } = await seedMeeting(app, basic, 'basic-regen', small);
    const first = await app.rest<Summary>('POST', '/v1/prompts', { token: basic, body: { meetKey: meetingKey, promptKey: 'action' } });
    const again = await app.rest<Summary>('PUT', `/v1/prompts/${first.body.docId}`, {
      token: basic,
      body: { meetKey: meetingKey, promptKey: 'action' },
    });
    expect(again.status).toBe(200);
    expect(again.body.docId).toBe(first.body.docId);

    const settings = { depth: 'deep', minLength: 100, maxLength: 300 };
    const forbidden = await app.rest<ErrorBody>('PUT', `/v1/p/prompts/${first.body.docId}`, {
      token: basic,
      body: { meetKey: meetingKey, promptKey: 'action', settings },
    });
    expect(forbidden).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    const sent = await app.rest<ErrorBody>('PUT', `/v1/prompts/${first.body.docId}`, {
      token: basic,
      body: { meetKey: meetingKey, promptKey: 'action', settings },
    });
    expect(sent.status).toBe(400);

    const wrongKind = await app.rest<ErrorBody>('PUT', `/v1/prompts/${first.body.docId}`, {
      token: basic,
      body: { meetKey: meetingKey, promptKey: 'summary' },
    });
    expect(wrongKind).toMatchObject({ status: 400, body: { data: { field: 'promptKey' } } });

    const ownSummary = (await app.rest<SummaryList>('GET', `/v1/summary-list/${meetKey}`, { token: premium })).body.summaries[0]!;
    for (const [settingsBody, field] of [
      [{ minLength: 200, maxLength: 100 }, 'settings.maxLength'],
      [{ minLength: 75 }, 'settings.minLength'],
      [{ depth: 'shallow' }, 'settings.depth'],
      [{ translateTo: 'xx' }, 'settings.translateTo'],
    ] as const) {
      const bad = await app.rest<ErrorBody>('PUT', `/v1/p/prompts/${ownSummary.docId}`, {
        token: premium,
        body: { meetKey, promptKey: ownSummary.promptKey, settings: settingsBody },
      });
      expect(bad.status, JSON.stringify(settingsBody)).toBe(400);
      expect(bad.body.data.field).toBe(field);
    }
    const withSettings = await app.rest<Summary>('PUT', `/v1/p/prompts/${ownSummary.docId}`, {
      token: premium,
      body: { meetKey, promptKey: ownSummary.promptKey, settings: { depth: 'speaker', minLength: 50 } },
    });
    expect(withSettings.status).toBe(200);
    expect((await app.deps.db.summary.findUniqueOrThrow({ where: { id: ownSummary.docId } })).settings).toMatchObject({
      depth: 'speaker',
      minLength: 50,
    });
  });

  it('answers translation without an LLM with the error that says how to configure one; English is the original', async () => {
    const summary = (await app.rest<SummaryList>('GET', `/v1/summary-list/${meetKey}`, { token: premium })).body.summaries[0]!;
    const body = { meetKey, type: 'summary', summaryKey: summary.docId, languageKey: 'fr' };
    const refused = await app.rest<ErrorBody>('POST', '/v1/translate', { token: premium, body });
    expect(refused.status).toBe(412);
    expect(refused.body).toMatchObject({ code: 'PRECONDITION_FAILED' });
    expect(refused.body.message).toMatch(/Translation needs an LLM.*OPENAI_API_KEY/);
    const english = await app.rest('POST', '/v1/translate', { token: premium, body: { ...body, languageKey: 'en' } });
    expect(english).toEqual({ status: 200, body: { text: summary.text } });
    const unknown = await app.rest<ErrorBody>('POST', '/v1/translate', { token: premium, body: { ...body, languageKey: 'xx' } });
    expect(unknown).toMatchObject({ status: 400, body: { data: { field: 'languageKey' } } });
    const transcription = await app.rest('POST', '/v1/translate', { token: premium, body: { ...body, type: 'transcription' } });
    expect(transcription.status).toBe(404);
    // The web app learns beforehand that translation is not offered.
    expect(await app.rest('GET', '/v1/summary-capabilities', { token: basic })).toEqual({ status: 200, body: { llmConfigured: false, engine: 'offline' } });
    expect((await app.rest('GET', '/v1/summary-capabilities', {})).status).toBe(401);
  });

  it('stores a cleaned line beside the original text (premium), also for encrypted messages', async () => {
    const { meetingKey, messages } = await seedMeeting(app, premium, 'fix', small);
    const target = messages[1]!;
    expect((await app.rest<ErrorBody>('PUT', `/v1/p/message/ai-fix/${target.key}`, { token: basic })).status).toBe(403);
    const fixed = await app.rest<{ message: Message }>('PUT', `/v1/p/message/ai-fix/${target.key}`, { token: premium });
    expect(fixed.status).toBe(200);
    expect(fixed.body.message).toMatchObject({ key: target.key, text: target.text, aiFixed: 'I think March third works for the engineering team.' });
    const row = await app.deps.db.message.findUniqueOrThrow({ where: { id: target.key } });
    expect(row).toMatchObject({ text: target.text, aiFixed: 'I think March third works for the engineering team.' });

    await app.rest('PUT', `/v1/p/meeting/encrypt/${meetingKey}`, { token: premium });
    const sealed = messages[0]!;
    const fixedSealed = await app.rest<{ message: Message }>('PUT', `/v1/p/message/ai-fix/${sealed.key}`, { token: premium });
    expect(fixedSealed.body.message).toMatchObject({ text: sealed.text, aiFixed: 'So we need to pick the launch date today.', encrypted: true });
    const sealedRow = await app.deps.db.message.findUniqueOrThrow({ where: { id: sealed.key } });
    expect(sealedRow.text).toMatch(/^enc1:/);
    expect(sealedRow.aiFixed).toMatch(/^enc1:/);
  });

  it('stores summaries of an encrypted meeting encrypted, and shows them in plain text', async () => {
    const { meetingKey } = await seedMeeting(app, premium, 'sealed', small);
    await app.rest('PUT', `/v1/p/meeting/encrypt/${meetingKey}`, { token: premium });
    const generated = await app.rest<Summary>('POST', '/v1/prompts', { token: premium, body: { meetKey: meetingKey, promptKey: 'next' } });
    expect(generated.status).toBe(200);
    expect(generated.body.encrypted).toBe(true);
    expect(generated.body.text).toContain('Bo');
    const row = await app.deps.db.summary.findUniqueOrThrow({ where: { id: generated.body.docId } });
    expect(row.text).toMatch(/^enc1:/);
    const list = await app.rest<SummaryList>('GET', `/v1/summary-list/${meetingKey}`, { token: premium });
    expect(list.body.summaries[0]!.text).toBe(generated.body.text);
  });

  it("answers 404 for another user's meeting, summary or message, and stores nothing", async () => {
    const summary = (await app.rest<SummaryList>('GET', `/v1/summary-list/${meetKey}`, { token: premium })).body.summaries[0]!;
    const { messages } = await seedMeeting(app, premium, 'mine', small);
    await makePremium(app, 'other@example.com');
    const before = await app.deps.db.summary.findMany({ orderBy: { id: 'asc' } });
    const calls: [string, string, unknown][] = [
      ['POST', '/v1/prompts', { meetKey, promptKey: 'summary' }],
      ['PUT', `/v1/prompts/${summary.docId}`, { meetKey, promptKey: summary.promptKey }],
      ['PUT', `/v1/p/prompts/${summary.docId}`, { meetKey, promptKey: summary.promptKey, settings: {} }],
      ['POST', '/v1/translate', { meetKey, type: 'summary', summaryKey: summary.docId, languageKey: 'en' }],
      ['PUT', `/v1/p/message/ai-fix/${messages[0]!.key}`, undefined],
    ];
    for (const [method, url, body] of calls) {
      const response = await app.rest<ErrorBody>(method, url, { token: other, body });
      expect(response.status, `${method} ${url}`).toBe(404);
      expect(response.body.message).toMatch(/not found/);
    }
    // The summary of one meeting cannot be regenerated through another of the user's meetings.
    const { meetingKey: otherMeeting } = await seedMeeting(app, premium, 'mine-2', small);
    const crossed = await app.rest('PUT', `/v1/prompts/${summary.docId}`, { token: premium, body: { meetKey: otherMeeting, promptKey: summary.promptKey } });
    expect(crossed.status).toBe(404);
    expect(await app.deps.db.summary.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
    expect((await app.deps.db.message.findUniqueOrThrow({ where: { id: messages[0]!.key } })).aiFixed).toBeNull();
  });

});

describe('AI generation calls through an OpenAI-compatible LLM', () => {
  let llm: OpenAiTestServer;
  let app: TestApp;
  let basic: string;
  let premium: string;
  let basicMeeting: string;
  let premiumMeeting: string;
  beforeAll(async () => {
    llm = await startOpenAiTestServer();
    app = await startTestApp(testLlmConfig(llm, 1000));
    basic = await app.signIn('basic@example.com');
    premium = await app.signIn('premium@example.com');
    await makePremium(app, 'premium@example.com');
    ({ meetingKey: basicMeeting } = await seedMeeting(app, basic, 'basic', small));
    ({ meetingKey: premiumMeeting } = await seedMeeting(app, premium, 'premium', small));
  });
  afterAll(async () => {
    await app.close();
    await llm.close();
  });
  beforeEach(() => llm.reset());

  const system = (i = 0) => llm.requests[i]!.body.messages.find((m) => m.role === 'system')!.content;
  const userMessage = (i = 0) => llm.requests[i]!.body.messages.find((m) => m.role === 'user')!.content;

  it('sends the transcript with the basic model for basic users and the advanced one for premium users', async () => {
    const plain = await app.rest<Summary>('POST', '/v1/prompts', { token: basic, body: { meetKey: basicMeeting, promptKey: 'summary' } });
    expect(plain.status).toBe(200);
    expect(llm.requests[0]!.body.model).toBe('model-basic');
    expect(userMessage(0)).toContain('Bo: I think March third works for the engineering team.');
    expect(system(0)).toContain('Depth: standard.');
    expect(plain.body.text).toMatch(/^Answer 1 from model-basic\./);

    const asked = await app.rest<Summary>('POST', '/v1/prompts', {
      token: premium,
      body: { meetKey: premiumMeeting, promptKey: 'custom', customPrompt: 'When is the launch?' },
    });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ title: 'When is the launch?', customPrompt: 'When is the launch?' });
    expect(asked.body.text).toMatch(/^Answer 2 from model-advanced\./);
    expect(llm.requests[1]!.body.model).toBe('model-advanced');
    expect(userMessage(1)).toMatch(/Question: When is the launch\?$/);
    expect(await app.rest('GET', '/v1/summary-capabilities', { token: basic })).toEqual({ status: 200, body: { llmConfigured: true, engine: 'openai' } });
  });

  it("passes depth, length and language through the route: given settings, else the premium user's defaults", async () => {
    const created = await app.rest<Summary>('POST', '/v1/prompts', { token: premium, body: { meetKey: premiumMeeting, promptKey: 'summary' } });
    const put = await app.rest<Summary>('PUT', `/v1/p/prompts/${created.body.docId}`, {
      token: premium,
      body: { meetKey: premiumMeeting, promptKey: 'summary', settings: { depth: 'deep', minLength: 100, maxLength: 300, translateTo: 'fr' } },
    });
    expect(put.status).toBe(200);
    expect(system(1)).toContain('Depth: deep level of details.');
    expect(system(1)).toContain('Length: between 175 and 300 words.');
    expect(system(1)).toContain('Language: write the whole answer in French.');

    await app.deps.db.user.update({
      where: { email: 'premium@example.com' },
      data: { defaultSummaryDepth: 'speaker', defaultMinSummaryLength: 50, defaultMaxSummaryLength: 0, defaultTranslateTo: 'ua' },
    });
    await app.rest('PUT', `/v1/prompts/${created.body.docId}`, { token: premium, body: { meetKey: premiumMeeting, promptKey: 'summary' } });
    expect(system(2)).toContain('Depth: by speaker.');
    expect(system(2)).toContain('Length: at least 50 words.');
    expect(system(2)).toContain('Ukrainian');
    // A basic user's saved defaults are premium settings: the server defaults apply.
    await app.deps.db.user.update({ where: { email: 'basic@example.com' }, data: { defaultSummaryDepth: 'deep', defaultTranslateTo: 'fr' } });
    await app.rest('POST', '/v1/prompts', { token: basic, body: { meetKey: basicMeeting, promptKey: 'goal' } });
    expect(system(3)).toContain('Depth: standard.');
    expect(system(3)).toContain('Language: write in the language the meeting was held in.');
  });

  /** An answer citing lines of `small` ([n] is its line n - 1), one point of which states a figure no line holds. */
  const citingAnswer =
    '<ul><li>Bo proposed March third [2].</li><li>Launch on March tenth [4][99].</li>' +
    '<li>Bo sends the plan by Friday [5, 2].</li><li>Ana orders 40 units [1].</li></ul>';

  it('stores the lines each point cites, answers them with the summary, and marks a point its lines do not hold', async () => {
    const { meetingKey, messages } = await seedMeeting(app, basic, 'basic-cited', small);
    llm.setResponder(() => citingAnswer);
    const generated = await app.rest<Summary>('POST', '/v1/prompts', { token: basic, body: { meetKey: meetingKey, promptKey: 'decision' } });
    expect(generated.status).toBe(200);
    const line = (i: number) => ({ messageId: messages[i]!.key, spokenAt: messages[i]!.spokenAt, speaker: small[i]!.speaker });
    const citations = [
      { n: 1, ...line(1) },
      { n: 2, ...line(3) },
      { n: 3, ...line(4) },
      { n: 4, ...line(0) },
    ];
    expect(generated.body.citations).toEqual(citations);
    expect(generated.body.text).toBe(
      '<ul><li>Bo proposed March third<sup class="cite" data-cite="1">[1]</sup>.</li>' +
        '<li>Launch on March tenth<sup class="cite" data-cite="2">[2]</sup>.</li>' +
        '<li>Bo sends the plan by Friday<sup class="cite" data-cite="1,3">[1, 3]</sup>.</li>' +
        '<li>Ana orders 40 units<sup class="cite" data-cite="4">[4]</sup>.' +
        '<small class="unsupported" data-missing="40">not found in the transcript</small></li></ul>',
    );
    // Stored in PostgreSQL beside the text, and read back with the list.
    const row = await app.deps.db.summary.findUniqueOrThrow({ where: { id: generated.body.docId } });
    expect(row.citations).toEqual(citations);
    const list = await app.rest<SummaryList>('GET', `/v1/summary-list/${meetingKey}`, { token: basic });
    expect(list.body.summaries[0]).toMatchObject({ text: generated.body.text, citations });

    // Translations keep the marks, numbered as the original.
    llm.setResponder((body) => body.messages[1]!.content.replace('Bo proposed March third', 'Bo a proposé le trois mars'));
    const translated = await app.rest<{ text: string }>('POST', '/v1/translate', {
      token: basic,
      body: { meetKey: meetingKey, type: 'summary', summaryKey: generated.body.docId, languageKey: 'fr' },
    });
    expect(translated.body.text).toBe(generated.body.text.replace('Bo proposed March third', 'Bo a proposé le trois mars'));

    // A regeneration citing nothing leaves no stale citations.
    llm.setResponder(() => '<p>Nothing decided.</p>');
    const again = await app.rest<Summary>('PUT', `/v1/prompts/${generated.body.docId}`, {
      token: basic,
      body: { meetKey: meetingKey, promptKey: 'decision' },
    });
    expect(again.body).toMatchObject({ text: '<p>Nothing decided.</p>', citations: [] });
  });

  it('keeps the citations of an encrypted meeting beside its sealed text', async () => {
    const { meetingKey, messages } = await seedMeeting(app, premium, 'premium-sealed-cited', small);
    await app.rest('PUT', `/v1/p/meeting/encrypt/${meetingKey}`, { token: premium });
    llm.setResponder(() => citingAnswer);
    const generated = await app.rest<Summary>('POST', '/v1/prompts', { token: premium, body: { meetKey: meetingKey, promptKey: 'decision' } });
    expect(generated.body).toMatchObject({ encrypted: true });
    expect(generated.body.citations.map((c) => c.messageId)).toEqual([1, 3, 4, 0].map((i) => messages[i]!.key));
    // The model read the decrypted lines: the points are checked against them as on any meeting.
    expect(generated.body.text).toContain('<small class="unsupported" data-missing="40">');
    const row = await app.deps.db.summary.findUniqueOrThrow({ where: { id: generated.body.docId } });
    expect(row.text).toMatch(/^enc1:/);
    const list = await app.rest<SummaryList>('GET', `/v1/summary-list/${meetingKey}`, { token: premium });
    expect(list.body.summaries[0]).toMatchObject({ text: generated.body.text, citations: generated.body.citations });
  });

  it('streams tokens to the subscriber as the LLM produces them', async () => {
    llm.setResponder(() => 'The launch moves to March tenth.\nBo sends the plan by Friday.');
    const { events, done } = collectStream(app, premium, { meetKey: premiumMeeting, promptKey: 'next' });
    const summary = await done;
    const tokens = events.flatMap((e) => (e.type === 'token' ? [e.text] : []));
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.join('')).toBe('The launch moves to March tenth.\nBo sends the plan by Friday.');
    expect(summary.text).toBe('The launch moves to March tenth.<br>Bo sends the plan by Friday.');
    expect(llm.requests[0]!.body.stream).toBe(true);
    expect((await app.deps.db.summary.findUniqueOrThrow({ where: { id: summary.docId } })).text).toBe(summary.text);
  });

  it('cancels the LLM request when the subscriber leaves, stores nothing and gives the generation back', async () => {
    const token = await app.signIn('leaver@example.com');
    const { meetingKey } = await seedMeeting(app, token, 'leaver', small);
    llm.enqueue({ stallAfterChunks: 2 });
    llm.setResponder(() => 'one two three four five six seven');
    const firstToken = new Promise<void>((resolve, reject) => {
      const sub = app.trpc(token).summary.generateStream.subscribe(
        { meetKey: meetingKey, promptKey: 'summary' },
        {
          onData: () => {
            sub.unsubscribe();
            resolve();
          },
          onError: reject,
        },
      );
    });
    await firstToken;
    expect(llm.inFlight).toBe(1);
    // Well within LLM_TIMEOUT_MS (1000): the request is cancelled, not timed out.
    await expect.poll(() => llm.inFlight, { timeout: 500 }).toBe(0);
    const { id } = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'leaver@example.com' } });
    const used = async () => (await app.deps.db.dailyUsage.findMany({ where: { subject: id } })).reduce((n, u) => n + u.count, 0);
    await expect.poll(used, { timeout: 3000 }).toBe(0);
    expect(await app.deps.db.summary.count({ where: { meetingId: meetingKey } })).toBe(0);
  });

  it('never stores a script, an event handler or a javascript: link, whatever the LLM answers', async () => {
    llm.setResponder(
      () =>
        '<p onclick="steal()">Launch on March tenth.</p><script>alert(1)</script><img src=x onerror="alert(1)">' +
        '<a href="javascript:alert(1)">plan</a><a href=" JaVaScRiPt:alert(2)">x</a><iframe src="https://evil.example"></iframe>' +
        '<ul><li onmouseover="x()">Bo sends the plan</li></ul><svg onload="alert(3)"></svg>',
    );
    const generated = await app.rest<Summary>('POST', '/v1/prompts', { token: premium, body: { meetKey: premiumMeeting, promptKey: 'action' } });
    expect(generated.status).toBe(200);
    const stored = (await app.deps.db.summary.findUniqueOrThrow({ where: { id: generated.body.docId } })).text;
    for (const html of [stored, generated.body.text]) {
      expect(html).not.toMatch(/<script|<iframe|<svg|\son[a-z]+\s*=|javascript:/i);
      expect(html).toContain('Launch on March tenth.');
      expect(html).toContain('<li>Bo sends the plan</li>');
    }
    const streamed = collectStream(app, premium, { meetKey: premiumMeeting, promptKey: 'action' });
    expect((await streamed.done).text).toBe(stored);
  });

  it('translates once, stores the translation per language and reuses it without calling the LLM', async () => {
    const summary = await app.rest<Summary>('POST', '/v1/prompts', { token: basic, body: { meetKey: basicMeeting, promptKey: 'decision' } });
    llm.reset();
    llm.setResponder(() => '<p>Lancement le <b>10 mars</b>.</p><script>x()</script>');
    const body = { meetKey: basicMeeting, type: 'summary', summaryKey: summary.body.docId, languageKey: 'fr' };
    const first = await app.rest<{ text: string }>('POST', '/v1/translate', { token: basic, body });
    expect(first).toEqual({ status: 200, body: { text: '<p>Lancement le <b>10 mars</b>.</p>' } });
    expect(llm.requests).toHaveLength(1);
    expect(system(0)).toContain('into French');
    // The default answer's figure is in no line: its unsupported mark travels as a placeholder.
    expect(userMessage(0)).toBe(summary.body.text.replace(/<small class="unsupported"[^>]*>[^<]*<\/small>/, '[[m1]]'));
    expect(llm.requests[0]!.body.model).toBe('model-basic');

    const second = await app.rest<{ text: string }>('POST', '/v1/translate', { token: basic, body });
    expect(second).toEqual(first);
    expect(llm.requests).toHaveLength(1);
    const list = await app.rest<SummaryList>('GET', `/v1/summary-list/${basicMeeting}`, { token: basic });
    expect(list.body.summaries.find((s) => s.docId === summary.body.docId)?.translations).toEqual({ fr: { text: first.body.text } });

    // Regenerating replaces the text, so its translations go with it.
    await app.rest('PUT', `/v1/prompts/${summary.body.docId}`, { token: basic, body: { meetKey: basicMeeting, promptKey: 'decision' } });
    const after = await app.rest<SummaryList>('GET', `/v1/summary-list/${basicMeeting}`, { token: basic });
    expect(after.body.summaries.find((s) => s.docId === summary.body.docId)?.translations).toEqual({});
  });

  it('stores translations of an encrypted summary encrypted', async () => {
    const { meetingKey } = await seedMeeting(app, premium, 'premium-sealed', small);
    await app.rest('PUT', `/v1/p/meeting/encrypt/${meetingKey}`, { token: premium });
    const summary = await app.rest<Summary>('POST', '/v1/prompts', { token: premium, body: { meetKey: meetingKey, promptKey: 'summary' } });
    expect(summary.body.encrypted).toBe(true);
    llm.setResponder(() => '<p>Résumé secret.</p>');
    const body = { meetKey: meetingKey, type: 'summary', summaryKey: summary.body.docId, languageKey: 'fr' };
    expect((await app.rest('POST', '/v1/translate', { token: premium, body })).body).toEqual({ text: '<p>Résumé secret.</p>' });
    const row = await app.deps.db.summary.findUniqueOrThrow({ where: { id: summary.body.docId } });
    expect(JSON.stringify(row.translations)).not.toContain('secret');
    expect((row.translations as { fr: { text: string } }).fr.text).toMatch(/^enc1:/);
    const list = await app.rest<SummaryList>('GET', `/v1/summary-list/${meetingKey}`, { token: premium });
    expect(list.body.summaries[0]!.translations).toEqual({ fr: { text: '<p>Résumé secret.</p>' } });
  });

  it('fixes a line with the LLM, keeping the original text', async () => {
    const { messages } = await seedMeeting(app, premium, 'premium-fix', small);
    llm.setResponder(() => '"I think March 3rd works for the engineering team."');
    const fixed = await app.rest<{ message: Message }>('PUT', `/v1/p/message/ai-fix/${messages[1]!.key}`, { token: premium });
    expect(fixed.status).toBe(200);
    expect(fixed.body.message).toMatchObject({ text: small[1]!.text, aiFixed: 'I think March 3rd works for the engineering team.' });
    expect(userMessage(0)).toContain(small[1]!.text);
    expect(llm.requests[0]!.body.model).toBe('model-advanced');
  });

  it("answers the 11th LLM generation of a basic user's day with 429 'Daily limit reached'; failures cost nothing", async () => {
    const token = await app.signIn('limited@example.com');
    const { meetingKey } = await seedMeeting(app, token, 'limited', small);
    const { meetingKey: tiny } = await seedMeeting(app, token, 'limited-tiny', small.slice(0, 2));
    const keys: PromptKey[] = ['summary', 'goal', 'topic', 'purpose', 'decision', 'action', 'next', 'issue', 'missing'];
    let docId = '';
    for (const promptKey of keys) {
      const response = await app.rest<Summary>('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey } });
      expect(response.status).toBe(200);
      docId = response.body.docId;
      // Refused calls in between do not count.
      expect((await app.rest('POST', '/v1/prompts', { token, body: { meetKey: tiny, promptKey } })).status).toBe(412);
    }
    const tenth = await app.rest('PUT', `/v1/prompts/${docId}`, { token, body: { meetKey: meetingKey, promptKey: 'missing' } });
    expect(tenth.status).toBe(200);
    const eleventh = await app.rest<ErrorBody>('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'sentiment' } });
    expect(eleventh).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS', message: DAILY_LIMIT_REACHED } });
    expect((await app.rest<ErrorBody>('PUT', `/v1/prompts/${docId}`, { token, body: { meetKey: meetingKey, promptKey: 'missing' } })).status).toBe(429);
    const streamed = collectStream(app, token, { meetKey: meetingKey, promptKey: 'sentiment' });
    await expect(streamed.done).rejects.toMatchObject({ message: DAILY_LIMIT_REACHED });
    // Reading the original is not a generation.
    const original = await app.rest('POST', '/v1/translate', { token, body: { meetKey: meetingKey, type: 'summary', summaryKey: docId, languageKey: 'en' } });
    expect(original.status).toBe(200);
    // Premium users are not limited (but for their token budget).
    const topic = await app.rest<Summary>('POST', '/v1/prompts', { token: premium, body: { meetKey: premiumMeeting, promptKey: 'topic' } });
    for (let i = 0; i < 12; i++) {
      const again = await app.rest('PUT', `/v1/prompts/${topic.body.docId}`, { token: premium, body: { meetKey: premiumMeeting, promptKey: 'topic' } });
      expect(again.status).toBe(200);
    }
  });

  it('answers LLM outages with clear 5xx errors, keeps the stored summary whole and costs no quota', async () => {
    const token = await app.signIn('outage@example.com');
    const { meetingKey } = await seedMeeting(app, token, 'outage', small);
    const stored = await app.rest<Summary>('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'summary' } });
    const row = await app.deps.db.summary.findUniqueOrThrow({ where: { id: stored.body.docId } });
    const cases = [
      { reply: { status: 503 }, status: 503, code: 'SERVICE_UNAVAILABLE', message: AI_UNAVAILABLE },
      { reply: { status: 500 }, status: 503, code: 'SERVICE_UNAVAILABLE', message: AI_UNAVAILABLE },
      { reply: { status: 429, retryAfterSeconds: 0 }, status: 503, code: 'SERVICE_UNAVAILABLE', message: AI_BUSY },
      { reply: { delayMs: 1500 }, status: 504, code: 'GATEWAY_TIMEOUT', message: AI_TIMEOUT },
      { reply: { content: '   ' }, status: 502, code: 'BAD_GATEWAY', message: 'Error occur. Try again later or contact support.' },
      { reply: { status: 401 }, status: 502, code: 'BAD_GATEWAY', message: expect.stringMatching(/refused/) },
    ];
    for (const { reply, status, code, message } of cases) {
      llm.enqueue(reply);
      const failed = await app.rest<ErrorBody>('PUT', `/v1/prompts/${row.id}`, { token, body: { meetKey: meetingKey, promptKey: 'summary' } });
      expect(failed, JSON.stringify(reply)).toMatchObject({ status, body: { code, message, data: { code, httpStatus: status } } });
    }
    llm.enqueue({ status: 503 });
    const fresh = await app.rest<ErrorBody>('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'issue' } });
    expect(fresh.status).toBe(503);
    llm.enqueue({ status: 503 });
    const translation = await app.rest<ErrorBody>('POST', '/v1/translate', {
      token,
      body: { meetKey: meetingKey, type: 'summary', summaryKey: row.id, languageKey: 'de' },
    });
    expect(translation.status).toBe(503);

    expect(await app.deps.db.summary.findMany({ where: { meetingId: meetingKey } })).toEqual([row]);
    const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'outage@example.com' } });
    const usage = await app.deps.db.dailyUsage.findMany({ where: { subject: user.id, kind: 'ai-generation' } });
    expect(usage.map((u) => u.count)).toEqual([1]);
  });
});
