import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskAllStreamEvent, AskStreamEvent, Summary } from '@mbox/shared';
import { loadConfig } from '../../config.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium, seedMeeting } from '../../test/fixtures.js';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../test/openai-server.js';
import { writeTinyGguf } from '../../test/tiny-gguf.js';
import { AiEngine } from '../engine.js';
import { fixLineOffline } from '../offline/fix-line.js';

// Which engine answers, and every AI feature through the real server with the local model
// (the tiny GGUF: noise for text, but real tokens, streams and citations handling).

let dir: string;
let modelsDir: string;
let llm: OpenAiTestServer;

const LOCAL = { LOCAL_MODEL_GPU: 'cpu', LOCAL_MODEL_THREADS: '1', LOCAL_MODEL_CONTEXT_TOKENS: '4096' } as const;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mbox-engine-order-'));
  modelsDir = join(dir, 'models');
  await mkdir(modelsDir);
  await writeTinyGguf(join(modelsDir, 'tiny.gguf'));
  llm = await startOpenAiTestServer();
});
afterAll(async () => {
  await llm.close();
  await rm(dir, { recursive: true, force: true });
});

const config = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, ...LOCAL, ...env });
const turns = [
  { speaker: 'Alice', text: 'We agreed the budget for the launch next week.' },
  { speaker: 'Bob', text: 'I will send the report to the customer by Friday.' },
];

describe('the engine order', () => {
  it('uses an OpenAI-compatible server when one is configured, even with a local model installed', async () => {
    const engine = AiEngine.fromConfig(config({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: llm.url, LOCAL_MODEL_DIR: modelsDir }));
    try {
      expect(engine.engine).toBe('openai');
      const summary = await engine.generateSummary({ transcript: turns, promptKey: 'summary', tier: 'basic' });
      expect(summary.model).toBe('gpt-4o-mini');
      expect(llm.requests).toHaveLength(1);
    } finally {
      await engine.close();
    }
  });

  it('uses the local model installed in LOCAL_MODEL_DIR when no server is configured', async () => {
    const engine = AiEngine.fromConfig(config({ LOCAL_MODEL_DIR: modelsDir }));
    try {
      expect(engine.engine).toBe('local');
      expect(engine.isLlmConfigured).toBe(true);
      const deltas: string[] = [];
      const summary = await engine.generateSummary({ transcript: turns, promptKey: 'summary', tier: 'basic', onToken: (d) => deltas.push(d) });
      expect(summary.model).toBe('local:tiny');
      expect(deltas.length).toBeGreaterThan(10);
      expect(summary.usage.completionTokens).toBeGreaterThan(10);
      // The local model's own context (4096, less the margin for another tokenizer) sizes the requests.
      expect(engine.inputTokenBudget).toBe(Math.floor(4096 * 0.85) - Math.round(Math.floor(4096 * 0.85) * 0.25));
    } finally {
      await engine.close();
    }
  });

  it('uses LOCAL_MODEL, a file anywhere, before the models folder', async () => {
    const pinned = await writeTinyGguf(join(dir, 'pinned.gguf'));
    const engine = AiEngine.fromConfig(config({ LOCAL_MODEL: pinned, LOCAL_MODEL_DIR: modelsDir }));
    try {
      expect(engine.local?.pinned).toBe(true);
      const answer = await engine.streamChat([{ role: 'user', content: 'When is the launch?' }], { tier: 'basic', maxTokens: 8 }, () => {});
      expect(answer.model).toBe('local:pinned');
    } finally {
      await engine.close();
    }
  });

  it('falls back to the offline engine without a server or a model', async () => {
    const engine = AiEngine.fromConfig(config({ LOCAL_MODEL_DIR: join(dir, 'empty') }));
    try {
      expect(engine.engine).toBe('offline');
      expect(engine.isLlmConfigured).toBe(false);
      expect((await engine.generateSummary({ transcript: turns, promptKey: 'summary', tier: 'basic' })).model).toBe('mbox-offline');
    } finally {
      await engine.close();
    }
  });
});

describe('every AI feature with the local model, through the server', () => {
  let app: TestApp;
  let token: string;
  let meetingKey: string;

  beforeAll(async () => {
    // A 2048-token context keeps the answers (a quarter of it) short on a busy test machine.
    app = await startTestApp({
      ...config({ LOCAL_MODEL_DIR: modelsDir, LOCAL_MODEL_CONTEXT_TOKENS: '2048' }),
      LOG_LEVEL: 'silent',
      PORT: 0,
      AI_DAILY_TOKENS_FREE: 0,
    });
    token = await app.signIn('local-model@example.com');
    // Custom questions and Regenerate with settings are premium features.
    await makePremium(app, 'local-model@example.com');
    const lines = Array.from({ length: 12 }, (_, i) => ({
      speaker: i % 2 ? 'Bob' : 'Alice',
      text: `Item ${i + 1}: we agreed the budget for the launch and Bob will send the report by Friday.`,
    }));
    ({ meetingKey } = await seedMeeting(app, token, 'local-model-session', lines));
  });
  afterAll(() => app.close());

  it('says the server has an LLM: translation is offered', async () => {
    expect((await app.rest('GET', '/v1/summary-capabilities', { token })).body).toEqual({ llmConfigured: true, engine: 'local' });
  });

  it('writes summaries, custom answers and regenerations with settings, and translates them', async () => {
    const generated = await app.rest<Summary>('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'summary' } });
    expect(generated.status).toBe(200);
    expect(generated.body.model).toBe('local:tiny');
    expect(generated.body.text.length).toBeGreaterThan(20);

    const custom = await app.rest<Summary>('POST', '/v1/prompts', {
      token,
      body: { meetKey: meetingKey, promptKey: 'custom', customPrompt: 'Who sends the report?' },
    });
    expect(custom).toMatchObject({ status: 200, body: { model: 'local:tiny' } });

    // Regenerate with settings.
    const regenerated = await app.rest<Summary>('PUT', `/v1/p/prompts/${generated.body.docId}`, {
      token,
      body: { meetKey: meetingKey, promptKey: 'summary', settings: { depth: 'speaker', minLength: 50 } },
    });
    expect(regenerated, JSON.stringify(regenerated.body)).toMatchObject({ status: 200, body: { model: 'local:tiny' } });

    const translated = await app.rest<{ text: string }>('POST', '/v1/translate', {
      token,
      body: { meetKey: meetingKey, type: 'summary', summaryKey: generated.body.docId, languageKey: 'fr' },
    });
    expect(translated.status).toBe(200);
    expect(translated.body.text.length).toBeGreaterThan(0);
  });

  it('answers Ask questions as a stream', async () => {
    const events: AskStreamEvent[] = [];
    await new Promise<void>((resolve, reject) => {
      const sub = app.trpc(token).ask.stream.subscribe(
        { meetingId: meetingKey, question: 'Who sends the report to the customer?' },
        {
          onData: (event) => {
            events.push(event);
            if (event.type === 'done' || event.type === 'error') {
              sub.unsubscribe();
              resolve();
            }
          },
          onError: reject,
        },
      );
    });
    expect(events.filter((e) => e.type === 'delta').length).toBeGreaterThan(3);
    expect(events.at(-1)).toMatchObject({ type: 'done', engine: 'local' });
  });

  it('answers a question across all meetings as a stream, citing only lines it was given', async () => {
    const events: AskAllStreamEvent[] = [];
    await new Promise<void>((resolve, reject) => {
      const sub = app.trpc(token).ask.allStream.subscribe(
        { question: 'Who sends the report to the customer?' },
        {
          onData: (event) => {
            events.push(event);
            if (event.type === 'done' || event.type === 'error') {
              sub.unsubscribe();
              resolve();
            }
          },
          onError: reject,
        },
      );
    });
    expect(events[0]).toMatchObject({ type: 'scope', scope: { range: null } });
    expect(events.filter((e) => e.type === 'delta').length).toBeGreaterThan(3);
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: 'done', engine: 'local' });
    // The tiny model writes noise: whatever [n] it wrote maps to a line of the user's meetings or is dropped.
    if (done.type === 'done') for (const c of done.citations) expect(c.meetingId).toBe(meetingKey);
  });

  it('cleans caption lines and summarises pasted text (the tools summarizer) with the local model', async () => {
    const { messages } = await seedMeeting(app, token, 'local-model-fix', [
      { speaker: 'Alice', text: 'um so I I think the the launch is is on friday' },
      { speaker: 'Bob', text: 'Sounds good.' },
    ]);
    const target = messages[0]!;
    const fixed = await app.rest<{ message: { aiFixed: string } }>('PUT', `/v1/p/message/ai-fix/${target.key}`, { token });
    expect(fixed.status).toBe(200);
    // The model's line (noise from the tiny model), not the offline rules' cleaned sentence.
    expect(fixed.body.message.aiFixed).not.toBe(fixLineOffline(target.text));
    expect(fixed.body.message.aiFixed.length).toBeGreaterThan(0);

    const sentences = [
      'The library will extend its opening hours from next month and stay open until nine in the evening.',
      'A survey of six hundred readers showed that most of them could only visit after work.',
    ];
    const response = await fetch(`${app.url}/v1/public/utils/summary`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ text: sentences.join('\n') }),
    });
    const body = (await response.json()) as { result: { summary: string } };
    expect(response.status).toBe(200);
    expect(body.result.summary.length).toBeGreaterThan(0);
    // The offline engine would have picked these sentences; the model wrote its own text.
    for (const sentence of sentences) expect(body.result.summary).not.toContain(sentence);
  });

  it('keeps /healthz responsive while the model generates', async () => {
    const busy = new AbortController();
    const generating = app.deps.ai
      .streamChat([{ role: 'user', content: 'Write a long report.' }], { tier: 'basic', maxTokens: 100_000, signal: busy.signal }, () => {})
      .catch(() => undefined);
    // The tiny model never ends early (it writes until maxTokens): once running, it runs through the probes.
    // How soon it starts depends on the machine's load, so it is waited for, not given a fixed time.
    await expect.poll(() => app.deps.ai.local?.status(), { timeout: 30_000, interval: 20 }).toMatchObject({ state: 'ready', running: 1 });
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      const response = await fetch(`${app.url}/healthz`);
      expect(response.status).toBe(200);
      times.push(performance.now() - started);
    }
    busy.abort();
    await generating;
    times.sort((a, b) => a - b);
    expect(times[times.length - 2]).toBeLessThan(250);
  });
});
