import { describe, expect, it } from 'vitest';
import { AiEngine } from '../engine.js';
import { QMSUM_DIR } from './qmsum.js';
import { evaluateSummaries } from './summaries.js';

describe('summary quality on QMSum (npm run eval:summaries)', () => {
  it('the offline engine beats the lead baseline on mean ROUGE-1 and ROUGE-L', { timeout: 120_000 }, async () => {
    const offline = new AiEngine({ contextTokens: 16_000, concurrency: 2 });
    const { rows, means } = await evaluateSummaries(QMSUM_DIR, { offline });
    expect(new Set(rows.map((r) => r.meeting)).size).toBe(3);
    expect(means.offline!.r1).toBeGreaterThan(means.lead!.r1);
    expect(means.offline!.rl).toBeGreaterThan(means.lead!.rl);
  });
});
