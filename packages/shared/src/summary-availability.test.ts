import { describe, expect, it } from 'vitest';
import { canSummarize, MIN_SUMMARY_MESSAGES, MIN_SUMMARY_SPEAKERS, SUMMARY_UNAVAILABLE_MESSAGE } from './summary-availability.js';

const lines = (...users: string[]) => users.map((user) => ({ user }));

describe('canSummarize', () => {
  it('needs 5 messages from 2 different speakers', () => {
    expect(MIN_SUMMARY_MESSAGES).toBe(5);
    expect(MIN_SUMMARY_SPEAKERS).toBe(2);
    expect(canSummarize(lines('A', 'B', 'A', 'A', 'B'))).toBe(true);
    expect(canSummarize(lines('A', 'B', 'A', 'B'))).toBe(false);
    expect(canSummarize(lines('A', 'A', 'A', 'A', 'A', 'A'))).toBe(false);
    expect(canSummarize([])).toBe(false);
  });
});

describe('SUMMARY_UNAVAILABLE_MESSAGE', () => {
  it('is the documented alert with both numbers', () => {
    expect(SUMMARY_UNAVAILABLE_MESSAGE).toBe(
      'To analyze the meeting and generate a summary the meeting should contain at least 5 replica from 2 different participations',
    );
  });
});
