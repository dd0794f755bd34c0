import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROMPTS, PROMPT_KEYS, type PromptKey } from '@mbox/shared';
import { loadConfig } from '../config.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../test/openai-server.js';
import { AiEngine } from './engine.js';
import { LlmNotConfiguredError, LlmRequestError } from './errors.js';
import { loadQmsumMeeting, toTranscript } from './eval/qmsum.js';
import { OpenAiProvider } from './openai-provider.js';
import { countMessageTokens } from './tokens.js';
import type { ChatMessage, TranscriptTurn } from './types.js';

let server: OpenAiTestServer;

beforeAll(async () => {
  server = await startOpenAiTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

function engine(options: { contextTokens?: number; concurrency?: number; timeoutMs?: number; maxRetries?: number } = {}): AiEngine {
  return new AiEngine({
    provider: new OpenAiProvider({
      apiKey: 'test-key',
      baseURL: server.url,
      models: { basic: 'model-basic', advanced: 'model-advanced' },
      timeoutMs: options.timeoutMs ?? 5_000,
      maxRetries: options.maxRetries ?? 3,
      retryBaseDelayMs: 5,
    }),
    contextTokens: options.contextTokens ?? 16_000,
    concurrency: options.concurrency ?? 4,
  });
}

const meeting: TranscriptTurn[] = [
  { speaker: 'Alice', text: 'Um, welcome everyone {vocalsound}. Today we decide the launch date.' },
  { speaker: 'Bob', text: 'I think the the launch should be on March 3rd.' },
  { speaker: 'Alice', text: "Agreed. Bob, you'll send the plan to marketing by Friday." },
];

/** The mark the evidence check gives a point whose figures the transcript does not hold. */
const notFound = (missing: string) => `<small class="unsupported" data-missing="${missing}">not found in the transcript</small>`;

const system = (i = 0) => server.requests[i]!.body.messages.find((m) => m.role === 'system')!.content;
const user = (i = 0) => server.requests[i]!.body.messages.find((m) => m.role === 'user')!.content;

describe('what the engine sends to an OpenAI-compatible server', () => {
  it.each(PROMPT_KEYS.map((k) => [k]))('sends the %s prompt with the transcript as "Speaker: text" lines', async (key: PromptKey) => {
    const result = await engine().generateSummary({
      transcript: meeting,
      promptKey: key,
      customPrompt: key === 'custom' ? 'When is the launch?' : undefined,
      tier: 'basic',
    });
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer test-key');
    expect(req.body.model).toBe('model-basic');
    expect(req.body.stream).toBeFalsy();
    expect(system()).toContain(`Task: ${PROMPTS[key].title}.`);
    expect(system()).toContain(PROMPTS[key].instructions);
    expect(system()).toContain('simple HTML');
    expect(user()).toContain('[1] Alice: Welcome everyone. Today we decide the launch date.');
    expect(user()).toContain('[2] Bob: I think the launch should be on March 3rd.');
    expect(system()).toContain('End every list item and every paragraph with the numbers of the lines it comes from');
    expect(user()).not.toContain('{vocalsound}');
    if (key === 'custom') {
      expect(user()).toMatch(/Question: When is the launch\?$/);
      expect(result.title).toBe('When is the launch?');
    } else expect(result.title).toBe(PROMPTS[key].title);
    expect(result.model).toBe('model-basic');
    // The default answer's number is in no line of the transcript.
    expect(result.html).toBe(`Answer 1 from model-basic.${notFound('1')}`);
    expect(result.citedLines).toEqual([]);
    expect(result.usage.promptTokens).toBeGreaterThan(0);
  });

  it('uses the advanced model for the advanced tier', async () => {
    await engine().generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'advanced' });
    expect(server.requests[0]!.body.model).toBe('model-advanced');
  });

  it('states the depth, length and language of the settings', async () => {
    const e = engine();
    await e.generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic', settings: {} });
    expect(system(0)).toContain('Depth: standard.');
    expect(system(0)).toContain('Length: at least 200 words.');
    expect(system(0)).toContain('Language: write in the language the meeting was held in.');

    await e.generateSummary({
      transcript: meeting,
      promptKey: 'summary',
      tier: 'basic',
      settings: { depth: 'deep', minLength: 100, maxLength: 300, translateTo: 'fr' },
    });
    expect(system(1)).toContain('Depth: deep level of details.');
    expect(system(1)).toContain('Length: between 175 and 300 words.');
    expect(system(1)).toContain('Language: write the whole answer in French.');

    await e.generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic', settings: { depth: 'speaker', minLength: 50, translateTo: 'ua' } });
    expect(system(2)).toContain('Depth: by speaker.');
    expect(system(2)).toContain('Length: at least 50 words.');
    expect(system(2)).toContain('Ukrainian');

    await e.generateSummary({ transcript: meeting, promptKey: 'action', tier: 'basic', settings: { maxLength: 250 } });
    expect(system(3)).toContain('Length: at most 250 words in total.');

    await e.generateSummary({ transcript: meeting, promptKey: 'purpose', tier: 'basic', settings: { minLength: 300 } });
    expect(system(4)).toContain('Length: exactly one sentence.');

    await e.generateSummary({ transcript: meeting, promptKey: 'c_summary', tier: 'basic' });
    expect(system(5)).toContain('Depth: deep level of details.');
  });

  it('refuses invalid settings and a too-short custom question without calling the LLM', async () => {
    await expect(engine().generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic', settings: { minLength: 200, maxLength: 100 } })).rejects.toMatchObject({
      name: 'AiInputError',
      field: 'settings.maxLength',
    });
    await expect(engine().generateSummary({ transcript: meeting, promptKey: 'custom', customPrompt: 'why', tier: 'basic' })).rejects.toMatchObject({
      field: 'customPrompt',
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe('citations', () => {
  const withGap: TranscriptTurn[] = [meeting[0]!, { speaker: 'Carol', text: '{vocalsound} um' }, meeting[1]!, meeting[2]!];

  it('numbers the lines sent, maps the markers back to transcript lines and checks each point', async () => {
    server.setResponder(() => '<ul><li>Bob proposed March 3rd [2].</li><li>Bob sends the plan by Friday [3][9].</li><li>Launch on May 5th [1]</li></ul>');
    const r = await engine().generateSummary({ transcript: withGap, promptKey: 'decision', tier: 'basic' });
    // Carol's empty turn was not sent: line [2] is transcript line 2, [3] line 3; [9] was never sent.
    expect(user()).toContain('[2] Bob: I think the launch should be on March 3rd.\n[3] Alice: Agreed.');
    expect(user()).not.toContain('Carol');
    expect(r.citedLines).toEqual([2, 3, 0]);
    expect(r.html).toBe(
      '<ul><li>Bob proposed March 3rd<sup class="cite" data-cite="1">[1]</sup>.</li>' +
        '<li>Bob sends the plan by Friday<sup class="cite" data-cite="2">[2]</sup>.</li>' +
        `<li>Launch on May 5th<sup class="cite" data-cite="3">[3]</sup>${notFound('May 5th')}</li></ul>`,
    );
  });

  it('keeps the global line numbers through the notes of a long meeting', async () => {
    const turns = toTranscript(loadQmsumMeeting('education_4'));
    server.setResponder((body) => {
      const sys = body.messages[0]!.content;
      const userText = body.messages.at(-1)!.content;
      const numbers = [...userText.matchAll(/^\[(\d+)\] /gm)].map((m) => Number(m[1]));
      if (/part \d+ of \d+/.test(sys)) return `- Notes from ${numbers[0]} to ${numbers.at(-1)} [${numbers[0]}]`;
      // The combine step cites the first line of the last part, as its notes give it.
      const last = [...userText.matchAll(/\[(\d+)\]/g)].at(-1)![1];
      return `<p>The committee heard evidence [${last}].</p>`;
    });
    const r = await engine({ contextTokens: 4_000 }).generateSummary({ transcript: turns, promptKey: 'summary', tier: 'basic' });
    const partNumber = (content: string) => Number(/part (\d+) of \d+/.exec(content)?.[1] ?? 0);
    // Parts run in parallel: in part order, not arrival order.
    const parts = server.requests
      .filter((q) => partNumber(q.body.messages[0]!.content) > 0)
      .sort((a, b) => partNumber(a.body.messages[0]!.content) - partNumber(b.body.messages[0]!.content));
    expect(parts.length).toBeGreaterThan(2);
    const firstNumbers = parts.map((q) => Number(/^\[(\d+)\] /m.exec(q.body.messages[1]!.content)![1]));
    // Each part goes on from where the one before ended.
    expect(firstNumbers[0]).toBe(1);
    expect(firstNumbers).toEqual([...firstNumbers].sort((a, b) => a - b));
    expect(new Set(firstNumbers).size).toBe(parts.length);
    expect(parts[0]!.body.messages[0]!.content).toContain('end every note with the numbers of the lines it comes from');
    const combine = server.requests.at(-1)!;
    expect(combine.body.messages[0]!.content).toContain('cite those numbers');
    // The cited number is the global one: the transcript line that part began with.
    const sent = turns.flatMap((t, i) => (t.text.replace(/\{[^}]*\}/g, '').trim() ? [i] : []));
    expect(r.citedLines).toEqual([sent[firstNumbers.at(-1)! - 1]]);
    expect(r.html).toBe('<p>The committee heard evidence<sup class="cite" data-cite="1">[1]</sup>.</p>');
  });

  it('does not number document paragraphs or keep citations in their summaries', async () => {
    server.setResponder(() => '<p>The article says so [1] <sup class="cite" data-cite="1">[2]</sup>.</p>');
    const r = await engine().generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic', material: 'document' });
    expect(user()).not.toMatch(/^\[\d+\]/m);
    expect(system()).not.toContain('Citations:');
    expect(r).toMatchObject({ html: '<p>The article says so [1] [2].</p>', citedLines: [] });
  });
});

describe('answers become safe HTML', () => {
  it('turns plain-text answers into <br> lines', async () => {
    server.setResponder(() => 'First point\nSecond point');
    const r = await engine().generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic' });
    expect(r.html).toBe('First point<br>Second point');
  });

  it('normalises HTML answers and strips scripts, handlers and javascript: links', async () => {
    server.setResponder(
      () =>
        '```html\n<p onclick="steal()">Intro</p><br><br><ul><br><li>One</li><br></ul><script>alert(1)</script>' +
        '<a href="javascript:alert(1)">x</a><img src=x onerror="alert(1)"><a href="https://example.org" onmouseover="y()">ok</a>\n```',
    );
    const r = await engine().generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic' });
    expect(r.html).not.toMatch(/<script|onclick|onerror|onmouseover|javascript:|<img/i);
    expect(r.html).toContain('<p>Intro</p><br><ul><li>One</li></ul>');
    expect(r.html).toContain('<a href="https://example.org" rel="noopener noreferrer nofollow" target="_blank">ok</a>');
  });
});

describe('streaming', () => {
  it('hands the text to onToken as it arrives and returns the whole answer', async () => {
    server.setResponder(() => 'The team agreed to launch on March 3rd. Bob sends the plan by Friday.');
    const tokens: string[] = [];
    const r = await engine().generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic', onToken: (t) => tokens.push(t) });
    expect(server.requests[0]!.body.stream).toBe(true);
    expect(tokens.length).toBeGreaterThan(5);
    expect(tokens.join('')).toBe('The team agreed to launch on March 3rd. Bob sends the plan by Friday.');
    expect(r.html).toBe('The team agreed to launch on March 3rd. Bob sends the plan by Friday.');
    expect(r.usage.completionTokens).toBeGreaterThan(0);
  });

  it('does not retry a stream that stalls after sending text, and reports the timeout', async () => {
    server.setResponder(() => 'one two three four five six');
    server.enqueue({ stallAfterChunks: 2 });
    const tokens: string[] = [];
    const error = await engine({ timeoutMs: 300 })
      .generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic', onToken: (t) => tokens.push(t) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect((error as LlmRequestError).kind).toBe('timeout');
    expect(tokens.join('')).toBe('one two ');
    expect(server.requests).toHaveLength(1);
  });

  it('retries a stream that failed before any text', async () => {
    server.enqueue({ status: 503 });
    const tokens: string[] = [];
    await engine().generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic', onToken: (t) => tokens.push(t) });
    expect(server.requests).toHaveLength(2);
    expect(tokens.join('')).toBe('Answer 2 from model-basic.');
  });
});

describe('retries and timeouts', () => {
  it('retries 429 and 5xx with backoff, then succeeds', async () => {
    server.enqueue({ status: 429 }, { status: 500 }, { status: 502 });
    const started = Date.now();
    const r = await engine({ maxRetries: 3 }).generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic' });
    expect(server.requests).toHaveLength(4);
    expect(r.html).toBe(`Answer 4 from model-basic.${notFound('4')}`);
    // Backoff of 5, 10 and 20 ms (±20 %) between the attempts.
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('honours Retry-After on a 429', async () => {
    server.enqueue({ status: 429, retryAfterSeconds: 0.3 });
    const started = Date.now();
    await engine().generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after the allowed retries with a rate-limit error', async () => {
    server.enqueue({ status: 429 }, { status: 429 }, { status: 429 });
    const error = await engine({ maxRetries: 2 })
      .generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, attempts: 3 });
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400', async () => {
    server.enqueue({ status: 400, message: 'bad model' });
    const error = await engine()
      .generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rejected', status: 400 });
    expect((error as Error).message).toContain('bad model');
    expect(server.requests).toHaveLength(1);
  });

  it('times out a slow answer, retries it, and fails with a timeout when it stays slow', async () => {
    server.enqueue({ delayMs: 1_000 });
    const r = await engine({ timeoutMs: 200, maxRetries: 1 }).generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic' });
    expect(r.html).toBe(`Answer 2 from model-basic.${notFound('2')}`);
    expect(server.requests).toHaveLength(2);

    server.reset();
    server.enqueue({ delayMs: 1_000 }, { delayMs: 1_000 });
    const started = Date.now();
    const error = await engine({ timeoutMs: 200, maxRetries: 1 })
      .generateSummary({ transcript: meeting, promptKey: 'summary', tier: 'basic' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', attempts: 2 });
    expect(Date.now() - started).toBeLessThan(900);
  });
});

describe('long meetings (map-reduce)', () => {
  it('splits a ~30,000-word meeting into chunks that fit the context, then combines them once', async () => {
    const turns = toTranscript(loadQmsumMeeting('education_4'));
    const long: TranscriptTurn[] = [];
    let words = 0;
    while (words < 30_000) {
      for (const t of turns) {
        long.push(t);
        words += t.text.split(/\s+/).length;
      }
    }
    const contextTokens = 4_000;
    server.setResponder((body) => {
      const sys = body.messages[0]!.content;
      const part = sys.match(/part (\d+) of (\d+)/);
      return part ? `- Notes of part ${part[1]}: exclusions, PRU capacity, funding.` : '<p>Combined summary of the whole meeting.</p>';
    });
    const tokens: string[] = [];
    const r = await engine({ contextTokens, concurrency: 3 }).generateSummary({
      transcript: long,
      promptKey: 'summary',
      tier: 'basic',
      settings: { minLength: 300, maxLength: 500 },
      onToken: (t) => tokens.push(t),
    });

    const chunkRequests = server.requests.filter((q) => /part \d+ of \d+ of a long meeting/.test(q.body.messages[0]!.content));
    const combine = server.requests.filter((q) => q.body.messages[0]!.content.includes('notes of its consecutive parts'));
    expect(chunkRequests.length).toBeGreaterThanOrEqual(10);
    expect(r.chunks).toBe(chunkRequests.length);
    expect(combine).toHaveLength(1);
    expect(server.requests).toHaveLength(chunkRequests.length + 1);
    expect(server.requests.at(-1)).toBe(combine[0]);
    for (const q of server.requests) {
      // Each request fits the context: its prompt plus the room it asks for the answer.
      expect(countMessageTokens(q.body.messages as ChatMessage[]) + q.body.max_tokens!).toBeLessThanOrEqual(contextTokens);
    }
    // Parts run in parallel, never more than LLM_CONCURRENCY at once; only the final answer streams.
    expect(server.maxInFlight).toBeGreaterThan(1);
    expect(server.maxInFlight).toBeLessThanOrEqual(3);
    expect(chunkRequests.every((q) => !q.body.stream)).toBe(true);
    expect(combine[0]!.body.stream).toBe(true);
    // Every part is covered once, in order, and the combine step asks for the requested length.
    const combineUser = combine[0]!.body.messages[1]!.content;
    for (let i = 1; i <= chunkRequests.length; i++) expect(combineUser).toContain(`Notes of part ${i}:`);
    expect(combine[0]!.body.messages[0]!.content).toContain('Length: between 300 and 500 words.');
    const chunkText = chunkRequests.map((q) => q.body.messages[1]!.content).join('\n');
    expect(chunkText.split(/\s+/).length).toBeGreaterThan(29_000);
    expect(chunkText).toContain('Lynne Neagle AM: ');
    expect(r.html).toBe('<p>Combined summary of the whole meeting.</p>');
    expect(tokens.join('')).toBe('<p>Combined summary of the whole meeting.</p>');
  });

  it('merges notes in an extra round when they do not fit one combine request', async () => {
    const turns = toTranscript(loadQmsumMeeting('education_4'));
    server.setResponder((body) =>
      body.messages[0]!.content.includes('part ') || body.messages[0]!.content.startsWith('Merge')
        ? `- ${'long note about exclusions and provision '.repeat(40)}`
        : 'Final.',
    );
    await engine({ contextTokens: 3_000 }).generateSummary({ transcript: turns, promptKey: 'decision', tier: 'basic' });
    const merges = server.requests.filter((q) => q.body.messages[0]!.content.startsWith('Merge these consecutive notes'));
    expect(merges.length).toBeGreaterThan(0);
    for (const q of server.requests) {
      expect(countMessageTokens(q.body.messages as ChatMessage[]) + q.body.max_tokens!).toBeLessThanOrEqual(3_000);
    }
    expect(server.requests.at(-1)!.body.messages[0]!.content).toContain('Task: Key decisions.');
  });
});

describe('translation and line fixes', () => {
  it('translates HTML into the language asked for and sanitises the answer', async () => {
    server.setResponder(() => '<p>Bonjour</p><script>x()</script>');
    const r = await engine().translate({ html: '<p>Hello</p>', languageCode: 'fr', tier: 'advanced' });
    expect(system()).toContain('into French');
    expect(user()).toBe('<p>Hello</p>');
    expect(server.requests[0]!.body.model).toBe('model-advanced');
    expect(r.html).toBe('<p>Bonjour</p>');
  });

  it('keeps citation and unsupported marks through the translation', async () => {
    server.setResponder((body) => body.messages[1]!.content.replace('Price', 'Prix').replace('Next', 'Ensuite'));
    const html =
      '<ul><li>Price 25 euros<sup class="cite" data-cite="1,2">[1, 2]</sup></li>' +
      `<li>Next<sup class="cite" data-cite="3">[3]</sup>${notFound('Bob')}</li></ul>`;
    const r = await engine().translate({ html, languageCode: 'fr', tier: 'basic' });
    expect(user()).toBe('<ul><li>Price 25 euros[[m1]]</li><li>Next[[m2]][[m3]]</li></ul>');
    expect(system()).toContain('Keep every placeholder such as [[m1]]');
    expect(r.html).toBe(html.replace('Price', 'Prix').replace('Next', 'Ensuite'));
  });

  it('without an LLM, translation explains how to configure one', async () => {
    const offline = AiEngine.fromConfig(loadConfig({}));
    expect(offline.isLlmConfigured).toBe(false);
    const error = await offline.translate({ html: '<p>Hello</p>', languageCode: 'fr', tier: 'basic' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmNotConfiguredError);
    expect((error as Error).message).toMatch(/OPENAI_API_KEY.*OPENAI_BASE_URL/);
  });

  it('fixes a caption line with the LLM', async () => {
    server.setResponder(() => '"So I think we should go with the red one."');
    const { text, usage } = await engine().fixLine({ text: 'um so i i think we we should uh go with the the red one', tier: 'basic' });
    expect(text).toBe('So I think we should go with the red one.');
    // The test server reports a token per four characters.
    expect(usage.completionTokens).toBe(Math.ceil('"So I think we should go with the red one."'.length / 4));
    expect(user()).toBe('um so i i think we we should uh go with the the red one');
    expect(system()).toContain('one line of a live-caption transcript');
  });
});

describe('configuration', () => {
  it('builds the engine from OPENAI_* and LLM_* variables', async () => {
    const e = AiEngine.fromConfig(
      loadConfig({ OPENAI_API_KEY: 'k-1', OPENAI_BASE_URL: server.url, OPENAI_MODEL_BASIC: 'small-one', LLM_CONTEXT_TOKENS: '8000' }),
    );
    expect(e.isLlmConfigured).toBe(true);
    await e.generateSummary({ transcript: meeting, promptKey: 'goal', tier: 'basic' });
    expect(server.requests[0]!.body.model).toBe('small-one');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer k-1');
  });
});
