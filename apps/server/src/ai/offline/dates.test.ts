import { afterEach, describe, expect, it } from 'vitest';
import { dueDate } from './dates.js';

// A Tuesday meeting at 10:00 in Berlin (09:00 UTC).
const TUESDAY = Date.UTC(2024, 2, 5, 9);
const processZone = process.env.TZ;

describe('due dates said in a meeting', () => {
  afterEach(() => {
    process.env.TZ = processZone;
  });

  // The server's own zone must not change what a meeting's words mean.
  for (const zone of ['UTC', 'Asia/Kolkata', 'America/New_York', 'Pacific/Auckland']) {
    it(`reads a weekday forward from the meeting, whatever the server's zone (${zone})`, () => {
      process.env.TZ = zone;
      const clock = { start: TUESDAY, timeZone: 'Europe/Berlin' };
      expect(dueDate('Announce the launch to customers on Tuesday morning.', clock)?.day).toBe('2024-03-12');
      expect(dueDate('Fix the export bugs by Friday.', clock)?.day).toBe('2024-03-08');
      expect(dueDate('Send it by March 20.', clock)?.day).toBe('2024-03-20');
      // The meeting's own day is no due date.
      expect(dueDate('I will do it in a second.', clock)).toBeUndefined();
    });
  }
});
