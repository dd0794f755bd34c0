import { describe, expect, it } from 'vitest';
import { formatHoursMinutes, formatTalkTime, weekLabel } from './format';

describe('dashboard figures', () => {
  it('shows hours only when there are some, minutes padded after hours', () => {
    expect(formatHoursMinutes({ hours: 0, minutes: 0 })).toBe('0m');
    expect(formatHoursMinutes({ hours: 0, minutes: 45 })).toBe('45m');
    expect(formatHoursMinutes({ hours: 3, minutes: 5 })).toBe('3h 05m');
    expect(formatHoursMinutes({ hours: 12, minutes: 30 })).toBe('12h 30m');
  });

  it('labels a week by its calendar day whatever the zone', () => {
    expect(weekLabel('2026-03-09')).toBe('Mar 9');
    expect(weekLabel('2026-01-01')).toBe('Jan 1');
    expect(weekLabel('not-a-date')).toBe('not-a-date');
  });

  it('formats talk time in minutes and seconds', () => {
    expect(formatTalkTime(0)).toBe('0s');
    expect(formatTalkTime(38_900)).toBe('38s');
    expect(formatTalkTime(12 * 60_000 + 4_000)).toBe('12m 04s');
  });
});
