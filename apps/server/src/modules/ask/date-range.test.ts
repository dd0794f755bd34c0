import { describe, expect, it } from 'vitest';
import { datesInQuestion, rangeOfDays } from './date-range.js';

// Saturday, November 28, 2026, 10:00 in New York.
const now = Date.parse('2026-11-28T15:00:00Z');
const timeZone = 'America/New_York';
/** Midnight of a day in New York (UTC−5 in winter, −4 in summer). */
const ny = (day: string, offset = '-05:00') => Date.parse(`${day}T00:00:00${offset}`);

function period(question: string, zone = timeZone) {
  const { range, rest } = datesInQuestion(question, { now, timeZone: zone });
  return { from: range?.from, to: range?.to, said: range?.said, label: range?.label, rest };
}

describe('date phrases of a question across meetings', () => {
  it('reads a calendar month, week, day and year in the asker’s zone', () => {
    expect(period('What did we decide about pricing last month?')).toEqual({
      from: ny('2026-10-01', '-04:00'),
      to: ny('2026-11-01', '-04:00'),
      said: 'last month',
      label: 'Oct 1, 2026 – Oct 31, 2026',
      rest: 'What did we decide about pricing ?',
    });
    expect(period('What happened in October?')).toMatchObject({ from: ny('2026-10-01', '-04:00'), to: ny('2026-11-01', '-04:00'), said: 'October' });
    expect(period('What did Bob say yesterday?')).toMatchObject({ from: ny('2026-11-27'), to: ny('2026-11-28'), said: 'yesterday', label: 'Nov 27, 2026' });
    // Weeks start on Monday: the week before the one of Saturday the 28th.
    expect(period('Decisions last week')).toMatchObject({ from: ny('2026-11-16'), to: ny('2026-11-23'), label: 'Nov 16, 2026 – Nov 22, 2026' });
    expect(period('Hiring plans last year')).toMatchObject({ from: ny('2025-01-01'), to: ny('2026-01-01') });
    expect(period('Anything today about the launch?')).toMatchObject({ from: ny('2026-11-28'), to: ny('2026-11-29') });
  });

  it('looks back for a bare weekday or month that would be in the future', () => {
    // "since Monday" on a Saturday is the Monday that passed, up to now.
    expect(period('What changed since Monday?')).toMatchObject({ from: ny('2026-11-23'), to: null, said: 'since Monday', label: 'since Nov 23, 2026', rest: 'What changed ?' });
    expect(period('What did we decide in March?')).toMatchObject({ from: ny('2026-03-01'), to: ny('2026-04-01', '-04:00') });
  });

  it('reads counted periods up to now, open periods and spans', () => {
    expect(period('Budget talk in the last 2 weeks')).toMatchObject({ from: ny('2026-11-14'), to: null, said: 'last 2 weeks' });
    expect(period('Anything before October?')).toMatchObject({ from: null, to: ny('2026-10-01', '-04:00'), said: 'before October', label: 'before Oct 1, 2026' });
    expect(period('Pricing between Oct 3 and Oct 10')).toMatchObject({
      from: ny('2026-10-03', '-04:00'),
      to: ny('2026-10-11', '-04:00'),
      said: 'between Oct 3 and Oct 10',
      rest: 'Pricing',
    });
    expect(period('Pricing from October 3 to October 10')).toMatchObject({ from: ny('2026-10-03', '-04:00'), to: ny('2026-10-11', '-04:00') });
  });

  it('resolves days in the asker’s zone: Tokyo’s yesterday is not New York’s', () => {
    expect(period('What did Bob say yesterday?', 'Asia/Tokyo')).toMatchObject({
      from: Date.parse('2026-11-28T00:00:00+09:00'),
      to: Date.parse('2026-11-29T00:00:00+09:00'),
    });
    // An unknown zone is UTC.
    expect(period('What did Bob say yesterday?', 'Mars/Olympus')).toMatchObject({ from: Date.parse('2026-11-27T00:00:00Z') });
  });

  it('finds no period where none is named: times of day, "now", plain questions', () => {
    for (const question of ['What did Bob promise?', 'Who speaks at 3pm?', 'What is the status now?']) {
      expect(period(question)).toMatchObject({ from: undefined, said: undefined, rest: question });
    }
  });
});

describe('explicit days', () => {
  it('covers whole days in the zone, both ends included, either end open', () => {
    expect(rangeOfDays({ from: '2026-10-01', to: '2026-10-31' }, timeZone)).toEqual({
      from: ny('2026-10-01', '-04:00'),
      to: ny('2026-11-01', '-04:00'),
      said: null,
      label: 'Oct 1, 2026 – Oct 31, 2026',
    });
    expect(rangeOfDays({ from: '2026-11-02' }, timeZone)).toMatchObject({ from: ny('2026-11-02'), to: null, label: 'since Nov 2, 2026' });
    expect(rangeOfDays({ to: '2026-11-02' }, 'UTC')).toMatchObject({ from: null, to: Date.parse('2026-11-03T00:00:00Z'), label: 'before Nov 3, 2026' });
    expect(rangeOfDays({}, timeZone)).toBeNull();
  });
});
