import { describe, expect, it } from 'vitest';
import { computeMeetingStats, computeTalkTime, meetingDurationMinutes, TALK_GAP_CAP_MS, toHoursMinutes } from './stats.js';

const at = (iso: string) => new Date(iso);
const minutes = (n: number) => n * 60_000;

describe('meetingDurationMinutes', () => {
  it('counts whole minutes only when the finish is after the start', () => {
    expect(meetingDurationMinutes(0, minutes(42) + 59_000)).toBe(42);
    expect(meetingDurationMinutes(1000, 1000)).toBeNull();
    expect(meetingDurationMinutes(5000, 1000)).toBeNull();
    expect(meetingDurationMinutes(0, null)).toBeNull();
  });
});

describe('toHoursMinutes', () => {
  it('splits whole minutes into hours and minutes', () => {
    expect(toHoursMinutes(minutes(125) + 30_000)).toEqual({ hours: 2, minutes: 5 });
    expect(toHoursMinutes(0)).toEqual({ hours: 0, minutes: 0 });
  });
});

describe('computeMeetingStats', () => {
  // Wednesday 2026-12-02, 01:00 UTC: still Tuesday 1 December in New York.
  const now = at('2026-12-02T01:00:00Z');
  const meeting = (start: string, durationMin: number | null, isAnalyzed = false) => ({
    startedAt: at(start),
    finishedAt: durationMin === null ? null : new Date(at(start).getTime() + minutes(durationMin)),
    isAnalyzed,
  });

  it('gives zeros without meetings', () => {
    const stats = computeMeetingStats([], now, 'UTC');
    expect(stats).toMatchObject({
      total: 0,
      last7Days: 0,
      thisMonth: 0,
      analyzed: 0,
      analyzedPercent: 0,
      totalDuration: { hours: 0, minutes: 0 },
      thisMonthDuration: { hours: 0, minutes: 0 },
    });
    expect(stats.perWeek).toHaveLength(12);
    expect(stats.perWeek.every((w) => w.count === 0)).toBe(true);
  });

  it('counts totals, recent days, the calendar month and durations in the zone', () => {
    const meetings = [
      meeting('2026-12-01T20:00:00Z', 90, true), // 1 Dec in both zones
      meeting('2026-12-01T03:00:00Z', 30, true), // 30 Nov 22:00 in New York
      meeting('2026-11-25T12:00:00Z', 45), // 7 days before 2 Dec UTC, 6 before 1 Dec in New York
      meeting('2026-11-10T12:00:00Z', 20, true),
      meeting('2026-11-10T14:00:00Z', -5), // finish before start: no duration
      meeting('2026-11-11T14:00:00Z', null), // never finished
    ];
    const utc = computeMeetingStats(meetings, now, 'UTC');
    expect(utc).toMatchObject({
      total: 6,
      last7Days: 2,
      thisMonth: 2,
      analyzed: 3,
      analyzedPercent: 50,
      totalDuration: { hours: 3, minutes: 5 },
      thisMonthDuration: { hours: 2, minutes: 0 },
      timeZone: 'UTC',
    });
    const ny = computeMeetingStats(meetings, now, 'America/New_York');
    expect(ny).toMatchObject({
      last7Days: 3,
      thisMonth: 1,
      thisMonthDuration: { hours: 1, minutes: 30 },
      timeZone: 'America/New_York',
    });
  });

  it('floors the analysed percentage', () => {
    const meetings = [meeting('2026-11-01T00:00:00Z', 1, true), meeting('2026-11-02T00:00:00Z', 1), meeting('2026-11-03T00:00:00Z', 1)];
    expect(computeMeetingStats(meetings, now, 'UTC').analyzedPercent).toBe(33);
  });

  it('counts meetings per Monday-based week for the last 12 weeks, oldest first', () => {
    const meetings = [
      meeting('2026-12-01T20:00:00Z', 10), // this week (Mon 30 Nov)
      meeting('2026-11-30T00:30:00Z', 10), // this week in UTC, previous week in New York
      meeting('2026-09-14T12:00:00Z', 10), // first of the 12 weeks
      meeting('2026-09-13T12:00:00Z', 10), // before it: not charted
      meeting('2026-12-09T12:00:00Z', 10), // after this week: not charted
    ];
    const utc = computeMeetingStats(meetings, now, 'UTC').perWeek;
    expect(utc[0]).toEqual({ weekStart: '2026-09-14', count: 1 });
    expect(utc[11]).toEqual({ weekStart: '2026-11-30', count: 2 });
    expect(utc.reduce((sum, w) => sum + w.count, 0)).toBe(3);
    const ny = computeMeetingStats(meetings, now, 'America/New_York').perWeek;
    expect(ny[11]).toEqual({ weekStart: '2026-11-30', count: 1 });
    expect(ny[10]).toEqual({ weekStart: '2026-11-23', count: 1 });
  });

  it('keeps week boundaries on local midnight across a DST change', () => {
    // New York leaves DST on 1 November 2026; the week of 26 October is 169 hours long.
    const stats = computeMeetingStats([meeting('2026-11-02T04:30:00Z', 5)], now, 'America/New_York');
    // 2 Nov 04:30Z is 1 Nov 23:30 local: still the week of 26 October.
    expect(stats.perWeek.find((w) => w.count === 1)?.weekStart).toBe('2026-10-26');
  });

  it('falls back to UTC for an unknown zone', () => {
    expect(computeMeetingStats([], now, 'Nowhere/Land').timeZone).toBe('UTC');
  });
});

describe('computeTalkTime', () => {
  const t0 = Date.parse('2026-11-22T10:00:00Z');
  it('gives each message the time until the next one, the last until the finish', () => {
    const talk = computeTalkTime(
      [
        { user: 'Ann', spokenAt: t0 },
        { user: 'Bob', spokenAt: t0 + 60_000 },
        { user: 'Ann', spokenAt: t0 + 90_000 },
      ],
      t0 + 120_000,
    );
    expect(talk).toEqual({
      totalMs: 120_000,
      speakers: [
        { user: 'Ann', ms: 90_000, percent: 75, messages: 2 },
        { user: 'Bob', ms: 30_000, percent: 25, messages: 1 },
      ],
    });
  });

  it('sorts messages by time, caps silences and gives the last message 0 without a finish', () => {
    const talk = computeTalkTime([
      { user: 'Bob', spokenAt: t0 + TALK_GAP_CAP_MS * 10 },
      { user: 'Ann', spokenAt: t0 },
    ]);
    expect(talk.speakers).toEqual([
      { user: 'Ann', ms: TALK_GAP_CAP_MS, percent: 100, messages: 1 },
      { user: 'Bob', ms: 0, percent: 0, messages: 1 },
    ]);
  });

  it('is empty without messages', () => {
    expect(computeTalkTime([], t0)).toEqual({ totalMs: 0, speakers: [] });
  });
});
