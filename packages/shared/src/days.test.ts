import { describe, expect, it } from 'vitest';
import { dayKey, dayKeyLabel, formatDayLabel, groupByDay, isValidTimeZone, meetingCountLabel, timeZoneSchema } from './days.js';

// 2026-11-22T03:30Z is still 21 November in New York and already 22 November in Tokyo.
const lateNight = Date.parse('2026-11-22T03:30:00Z');

describe('dayKey and labels', () => {
  it('take the day in the given zone, not the machine zone', () => {
    expect(dayKey(lateNight, 'America/New_York')).toBe('2026-11-21');
    expect(dayKey(lateNight, 'Asia/Tokyo')).toBe('2026-11-22');
    expect(dayKey(new Date(lateNight), 'UTC')).toBe('2026-11-22');
  });
  it('write a long English date', () => {
    expect(formatDayLabel(lateNight, 'America/New_York')).toBe('Saturday, November 21, 2026');
    expect(formatDayLabel(lateNight, 'Asia/Tokyo')).toBe('Sunday, November 22, 2026');
    expect(dayKeyLabel('2026-11-22')).toBe('Sunday, November 22, 2026');
    expect(dayKeyLabel('garbage')).toBe('garbage');
  });
  it('fall back to UTC for a zone Intl does not know', () => {
    expect(dayKey(lateNight, 'Mars/Olympus')).toBe('2026-11-22');
  });
});

describe('time zones', () => {
  it('accept IANA names and refuse others', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(timeZoneSchema.parse(' Asia/Kolkata ')).toBe('Asia/Kolkata');
    expect(timeZoneSchema.safeParse('Nowhere').error?.issues[0]?.message).toMatch(/Unknown time zone/);
  });
});

describe('groupByDay', () => {
  const meetings = [
    { id: 'a', at: Date.parse('2026-11-20T10:00:00Z') },
    { id: 'b', at: lateNight },
    { id: 'c', at: Date.parse('2026-11-21T15:00:00Z') },
    { id: 'd', at: Date.parse('2026-11-22T12:00:00Z') },
  ];

  it('groups by the day in the zone, newest day and newest item first', () => {
    const groups = groupByDay(meetings, (m) => m.at, 'America/New_York');
    expect(groups.map((g) => [g.day, g.items.map((m) => m.id)])).toEqual([
      ['2026-11-22', ['d']],
      ['2026-11-21', ['b', 'c']],
      ['2026-11-20', ['a']],
    ]);
    expect(groups[1]?.label).toBe('Saturday, November 21, 2026');
  });

  it('moves evening meetings to the next day further east', () => {
    // c starts at midnight in Tokyo, so it joins b and d.
    const groups = groupByDay(meetings, (m) => m.at, 'Asia/Tokyo');
    expect(groups.map((g) => [g.day, g.items.map((m) => m.id)])).toEqual([
      ['2026-11-22', ['d', 'b', 'c']],
      ['2026-11-20', ['a']],
    ]);
  });

  it('returns no groups for no items', () => {
    expect(groupByDay([], () => 0, 'UTC')).toEqual([]);
  });
});

describe('meetingCountLabel', () => {
  it('counts meetings', () => {
    expect(meetingCountLabel(1)).toBe('(1 meeting)');
    expect(meetingCountLabel(3)).toBe('(3 meetings)');
  });
});
