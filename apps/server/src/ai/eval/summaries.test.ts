import { describe, expect, it } from 'vitest';
import { AiEngine } from '../engine.js';
import { QMSUM_FIXTURES_DIR } from './qmsum.js';
import { evaluateSummaries } from './summaries.js';

describe('summary quality on QMSum (npm run eval:summaries)', () => {
  it('the offline engine beats the lead and TextRank baselines on mean ROUGE-1 and ROUGE-L', { timeout: 120_000 }, async () => {
    const offline = new AiEngine({ contextTokens: 16_000, concurrency: 2 });
    const { rows, means } = await evaluateSummaries(QMSUM_FIXTURES_DIR, { offline }, ['summary']);
    expect(new Set(rows.map((r) => r.meeting)).size).toBe(3);
    const m = means.summary;
    expect(m.offline!.r1).toBeGreaterThan(m.lead!.r1);
    expect(m.offline!.rl).toBeGreaterThan(m.lead!.rl);
    expect(m.offline!.r1).toBeGreaterThan(m.textrank!.r1);
  });
});
