import { describe, expect, it } from 'vitest';
import { captureEventSchema, captureGapText } from './capture-events.js';

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const at = (h: number, m: number) => Date.UTC(2026, 10, 20, h, m);

describe('captureGapText', () => {
  it('names a closed gap with its span', () => {
    expect(captureGapText({ kind: 'captions-off', startedAt: at(10, 2), endedAt: at(10, 7) }, hhmm)).toBe('Captions were off 10:02–10:07');
    expect(captureGapText({ kind: 'region-missing', startedAt: at(10, 2), endedAt: at(10, 7) }, hhmm)).toBe(
      'Caption region was missing 10:02–10:07',
    );
    expect(captureGapText({ kind: 'no-captions', startedAt: at(10, 2), endedAt: at(10, 7) }, hhmm)).toBe('No captions 10:02–10:07');
  });

  it('names an open gap by its start', () => {
    expect(captureGapText({ kind: 'captions-off', startedAt: at(10, 2), endedAt: null }, hhmm)).toBe('Captions off since 10:02');
  });
});

describe('captureEventSchema', () => {
  it('refuses an end before the start, naming the field', () => {
    const result = captureEventSchema.safeParse({ eventId: 'g1', kind: 'captions-off', startedAt: Date.UTC(2026, 0, 1, 10), endedAt: Date.UTC(2026, 0, 1, 9) });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['endedAt']);
  });
});
