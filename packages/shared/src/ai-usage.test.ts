import { describe, expect, it } from 'vitest';
import { aiGenerationsLeftText, aiUsageSchema, type AiUsage } from './ai-usage.js';

const usage = (generations: AiUsage['generations']): AiUsage => ({
  day: '2026-11-20',
  resetsAt: Date.UTC(2026, 10, 21),
  generations,
  tokens: { used: 0, limit: null, left: null },
});

describe('aiGenerationsLeftText', () => {
  it('says what is left of a limited day', () => {
    expect(aiGenerationsLeftText(usage({ used: 3, limit: 10, left: 7 }))).toBe('7 of 10 AI summaries left today');
    expect(aiGenerationsLeftText(usage({ used: 10, limit: 10, left: 0 }))).toBe('0 of 10 AI summaries left today');
    expect(aiGenerationsLeftText(usage({ used: 0, limit: 1, left: 1 }))).toBe('1 of 1 AI summary left today');
  });

  it('says nothing when generations are not limited', () => {
    expect(aiGenerationsLeftText(usage({ used: 4, limit: null, left: null }))).toBeNull();
  });

  it('is what the usage call answers', () => {
    expect(aiUsageSchema.safeParse(usage({ used: 3, limit: 10, left: 7 })).success).toBe(true);
    expect(aiUsageSchema.safeParse(usage({ used: -1, limit: 10, left: 11 })).success).toBe(false);
  });
});
