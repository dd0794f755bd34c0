import { describe, expect, it } from 'vitest';
import { formatMeetingDuration, formatMessageTime } from './format.js';

describe('formatMeetingDuration', () => {
  it('writes whole minutes', () => {
    expect(formatMeetingDuration(0, 45 * 60_000 + 59_000)).toBe('for 45 minutes');
    expect(formatMeetingDuration(0, 30_000)).toBe('for 0 minutes');
    expect(formatMeetingDuration(new Date(0), new Date(60_000))).toBe('for 1 minute');
  });
  it('gives nothing when the finish is missing or not after the start', () => {
    expect(formatMeetingDuration(1000, null)).toBeNull();
    expect(formatMeetingDuration(1000, 1000)).toBeNull();
  });
});

describe('formatMessageTime', () => {
  const spokenAt = Date.parse('2026-11-22T14:05:00Z');
  it('writes hh:mm with two digits, en-US', () => {
    expect(formatMessageTime(spokenAt, 'UTC')).toBe('02:05 PM');
    expect(formatMessageTime(spokenAt, 'Asia/Kolkata')).toBe('07:35 PM');
  });
  it('uses the device zone when none or an unknown one is given', () => {
    const device = new Date(spokenAt).toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit' });
    expect(formatMessageTime(spokenAt)).toBe(device);
    expect(formatMessageTime(spokenAt, 'Nowhere')).toBe(device);
  });
});
