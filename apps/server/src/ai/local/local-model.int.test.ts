import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyGguf } from '../../test/tiny-gguf.js';
import type { ChatMessage, LlmRequest } from '../types.js';
import { LocalModelLoadError, LocalModelProvider } from './provider.js';

// The real runtime: node-llama-cpp's prebuilt llama.cpp runs the tiny GGUF the test writes (random
// weights, a few hundred word pieces: its text is noise, its tokens are real).

let dir: string;
let modelPath: string;

const base = { threads: 1, gpu: 'cpu' as const, maxContextTokens: 4096, memoryLimitBytes: 8 * 1024 ** 3 };
const messages: ChatMessage[] = [
  { role: 'system', content: 'You summarise meetings.' },
  { role: 'user', content: 'Alice: we agreed on the budget. Bob: the launch is next week.' },
];
const request = (maxTokens: number, signal?: AbortSignal): LlmRequest => ({ messages, tier: 'basic', maxTokens, signal });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mbox-local-model-'));
  modelPath = await writeTinyGguf(join(dir, 'tiny.gguf'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the local model runtime', () => {
  let model: LocalModelProvider;
  beforeAll(async () => {
    model = await LocalModelProvider.load({ ...base, modelPath, parallel: 1 });
  });
  afterAll(() => model.close());

  it('loads the GGUF with the context its metadata declares, capped by LOCAL_MODEL_CONTEXT_TOKENS', () => {
    expect(model.contextTokens).toBe(4096);
    expect(model.details.trainContextTokens).toBe(4096);
    expect(model.model).toBe('local:tiny');
  });

  it('streams tokens as llama.cpp produces them and counts them', async () => {
    const deltas: string[] = [];
    const result = await model.stream(request(40), (d) => deltas.push(d));
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(result.text);
    expect(result.text.trim().length).toBeGreaterThan(0);
    expect(result.usage.completionTokens).toBe(40);
    expect(result.usage.promptTokens).toBeGreaterThan(10);
    expect(result.model).toBe('local:tiny');
  });

  it('stops a generation whose client left and frees its slot for the next one', async () => {
    const client = new AbortController();
    let seen = 0;
    const started = Date.now();
    const cut = model.stream(request(100_000, client.signal), () => {
      if (++seen === 10) client.abort();
    });
    await expect(cut).rejects.toMatchObject({ name: 'LlmRequestError', message: 'The LLM request was cancelled.' });
    expect(seen).toBeLessThan(40);
    expect(Date.now() - started).toBeLessThan(20_000);
    // The slot is free: the next generation runs at once.
    expect(model.load).toEqual({ queued: 0, running: 0 });
    expect((await model.generate(request(5))).usage.completionTokens).toBe(5);
  });

  it('queues generations beyond LOCAL_MODEL_PARALLEL in order, and drops a queued one whose client left', async () => {
    const order: string[] = [];
    const first = model.generate(request(60)).then(() => order.push('first'));
    const leaving = new AbortController();
    const dropped = model.generate(request(60, leaving.signal));
    const third = model.generate(request(5)).then(() => order.push('third'));
    expect(model.load).toEqual({ queued: 2, running: 1 });
    leaving.abort();
    await expect(dropped).rejects.toThrow('cancelled');
    expect(model.load).toEqual({ queued: 1, running: 1 });
    await Promise.all([first, third]);
    expect(order).toEqual(['first', 'third']);
  });
});

describe('LOCAL_MODEL_PARALLEL', () => {
  it('runs that many generations at once, each in its own sequence', async () => {
    const model = await LocalModelProvider.load({ ...base, modelPath, parallel: 2 });
    try {
      const running: number[] = [];
      const all = [1, 2, 3].map(() => model.stream(request(30), () => running.push(model.load.running)));
      expect(model.load).toEqual({ queued: 1, running: 2 });
      const results = await Promise.all(all);
      expect(Math.max(...running)).toBe(2);
      for (const r of results) expect(r.usage.completionTokens).toBe(30);
    } finally {
      await model.close();
    }
  });
});

describe('loading', () => {
  it('refuses a model that needs more memory than there is, saying how much it needs', async () => {
    const refused = LocalModelProvider.load({ ...base, modelPath, parallel: 1, memoryLimitBytes: 1024 * 1024 });
    await expect(refused).rejects.toBeInstanceOf(LocalModelLoadError);
    await expect(refused).rejects.toMatchObject({ reason: 'memory', message: expect.stringMatching(/needs about [\d.]+ GB of RAM .* and 0\.0 GB is available/) });
  });

  it('refuses a file that is not a GGUF model with a clear error', async () => {
    const bogus = join(dir, 'bogus.gguf');
    await writeFile(bogus, 'not a model');
    await expect(LocalModelProvider.load({ ...base, modelPath: bogus, parallel: 1 })).rejects.toMatchObject({
      name: 'LocalModelLoadError',
      reason: 'invalid',
      message: expect.stringContaining('could not be loaded'),
    });
  });
});
