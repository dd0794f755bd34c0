import { describe, expect, it } from 'vitest';
import { AiEngine } from '../engine.js';
import { fixLineOffline } from './fix-line.js';

describe('rule-based caption line cleanup', () => {
  it.each([
    ['um so i i think we we should uh go {vocalsound} with the the red one', 'So I think we should go with the red one.'],
    ['what do you think about the price', 'What do you think about the price?'],
    ["yeah i'm not sure , it 's expensive", "Yeah I'm not sure, it's expensive."],
    ['you know, the deadline is friday. we can move it', 'The deadline is friday. We can move it.'],
    ['Already clean.', 'Already clean.'],
    ['uh um {gap}', ''],
  ])('%s → %s', (input, expected) => {
    expect(fixLineOffline(input)).toBe(expected);
  });

  it('is what the engine answers without an LLM', async () => {
    const engine = new AiEngine({ contextTokens: 16_000, concurrency: 1 });
    await expect(engine.fixLine({ text: 'uh the the plan is ready', tier: 'basic' })).resolves.toEqual({ text: 'The plan is ready.', usage: { promptTokens: 0, completionTokens: 0 } });
  });
});
