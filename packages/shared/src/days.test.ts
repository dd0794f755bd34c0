import { tz } from '@date-fns/tz';
import { format } from 'date-fns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calendarDaySchema, dayKey, dayKeyLabel, formatDayLabel, groupByDay, isCalendarDay, isValidTimeZone, meetingCountLabel, timeZoneSchema } from './days.js';

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

describe('day keys and labels from the cached formatter', () => {
  const zones = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'Europe/Berlin', 'Pacific/Kiritimati'];
  it('agree with date-fns time-zone formatting at any moment (DST changes and odd offsets included)', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2037, 0, 1) }), fc.constantFrom(...zones), (time, zone) => {
        expect(dayKey(time, zone)).toBe(format(time, 'yyyy-MM-dd', { in: tz(zone) }));
        expect(formatDayLabel(time, zone)).toBe(format(time, 'EEEE, MMMM d, yyyy', { in: tz(zone) }));
      }),
      { numRuns: 2000 },
    );
  });
  it('agree with Intl at every quarter hour of 2025 and 2026, in weeks with and without an offset change', () => {
    for (const zone of zones) {
      const oracle = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
      for (let time = Date.UTC(2025, 0, 1); time < Date.UTC(2027, 0, 1); time += 900_000) {
        if (dayKey(time, zone) !== oracle.format(time)) expect(`${zone} ${new Date(time).toISOString()}: ${dayKey(time, zone)}`).toBe(oracle.format(time));
      }
    }
  });
  it('agree at the instants around local midnight', () => {
    // 2026-03-29 is the spring change in Berlin; local midnight is 23:00Z the day before.
    const midnight = Date.parse('2026-03-28T23:00:00Z');
    expect(dayKey(midnight - 1, 'Europe/Berlin')).toBe('2026-03-28');
    expect(dayKey(midnight, 'Europe/Berlin')).toBe('2026-03-29');
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

  it('puts every item in the group of its own day, across offset changes (property)', () => {
    const zones = ['Europe/Berlin', 'America/St_Johns', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Asia/Kathmandu'];
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2027, 0, 1) }), { maxLength: 200 }),
        fc.constantFrom(...zones),
        (times, zone) => {
          const oracle = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
          const groups = groupByDay(times, (t) => t, zone);
          const days = groups.map((g) => g.day);
          expect(new Set(days).size).toBe(days.length);
          expect(groups.flatMap((g) => g.items)).toEqual([...times].sort((a, b) => b - a));
          for (const group of groups) {
            expect(group.label).toBe(dayKeyLabel(group.day));
            for (const time of group.items) expect(oracle.format(time)).toBe(group.day);
          }
        },
      ),
      { numRuns: 300 },
    );
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

describe('calendar days', () => {
  it('accepts days of the calendar written yyyy-MM-dd, leap days included', () => {
    for (const day of ['2024-02-29', '2026-12-31', '2000-01-01']) expect(isCalendarDay(day)).toBe(true);
    for (const day of ['2026-02-29', '2026-13-01', '2026-04-31', '2026-1-5', '05/03/2026', '2026-03-05T10:00']) expect(isCalendarDay(day)).toBe(false);
  });

  it('says what is wrong: the format, or a day the calendar lacks', () => {
    expect(calendarDaySchema.safeParse('next Friday').error?.issues[0]?.message).toBe('must be a date written YYYY-MM-DD');
    expect(calendarDaySchema.safeParse('2026-02-30').error?.issues[0]?.message).toBe('is not a day of the calendar');
    expect(calendarDaySchema.parse(' 2026-03-05 ')).toBe('2026-03-05');
  });

  it('agrees with dayKey for any moment and zone', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (time) => isCalendarDay(dayKey(time, 'Pacific/Kiritimati'))));
  });
});
