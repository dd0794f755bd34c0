import { TZDate, tzOffset } from '@date-fns/tz';
import {
  addDays,
  addMonths,
  addQuarters,
  addWeeks,
  addYears,
  startOfDay,
  startOfMonth,
  startOfQuarter,
  startOfWeek,
  startOfYear,
  subWeeks,
  subYears,
} from 'date-fns';
import type { ParsedComponents, ParsedResult } from 'chrono-node';
import { DEFAULT_TIME_ZONE, isValidTimeZone, type AskAllRange } from '@mbox/shared';
import { chrono } from '../../ai/offline/dates.js';

/**
 * The period a question across meetings asks about (docs/ask.md, "Ask all meetings"): a date phrase
 * chrono-node finds in it ("last month", "in October", "yesterday", "since Monday", "between Oct 3 and
 * Oct 10"), turned into whole days, weeks, months or years of the asker's time zone.
 */

type Unit = 'day' | 'week' | 'weekend' | 'month' | 'quarter' | 'year';

/** Words of a relative phrase that count units ("last 2 weeks", "past few days"): a rolling period up to now. */
const COUNT_WORDS = new Set('a an one two three four five six seven eight nine ten eleven twelve few couple several'.split(' '));
/** The word before a phrase that makes it an open period: from it up to now, or everything before it. */
const OPEN_FROM = new Set(['since', 'after']);
const OPEN_UNTIL = new Set(['before', 'until', 'till']);

/** Weeks start on Monday (ISO 8601). */
const WEEK = { weekStartsOn: 1 } as const;

const STARTS: Record<Unit, (d: TZDate) => TZDate> = {
  day: startOfDay,
  week: (d) => startOfWeek(d, WEEK),
  weekend: startOfDay,
  month: startOfMonth,
  quarter: startOfQuarter,
  year: startOfYear,
};
const NEXT: Record<Unit, (d: TZDate) => TZDate> = {
  day: (d) => addDays(d, 1),
  week: (d) => addWeeks(d, 1),
  weekend: (d) => addDays(d, 2),
  month: (d) => addMonths(d, 1),
  quarter: (d) => addQuarters(d, 1),
  year: (d) => addYears(d, 1),
};

export interface QuestionDates {
  /** The period, or null when the question names none. */
  range: AskAllRange | null;
  /** The question without the words that named the period (they are no words to search for). */
  rest: string;
}

interface Clock {
  now: number;
  timeZone: string;
}

function zoneOf(timeZone: string | null | undefined): string {
  return timeZone && isValidTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
}

const tokens = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The unit a phrase names by its last word ("last month" → month, "past 3 days" → day). */
function unitWord(text: string): Unit | undefined {
  const last = tokens(text).at(-1)?.replace(/s$/, '');
  return last === 'day' || last === 'week' || last === 'weekend' || last === 'month' || last === 'quarter' || last === 'year' ? last : undefined;
}

/** A phrase that names a period at all: a time of day ("at 3pm") or "now" does not. */
function namesPeriod(result: ParsedResult): boolean {
  if (result.tags().has('casualReference/now')) return false;
  const c = result.start;
  return unitWord(result.text) !== undefined || c.isCertain('day') || c.isCertain('weekday') || c.isCertain('month') || c.isCertain('year');
}

/**
 * The whole unit around a point chrono found (its own word's unit, else its finest certain component),
 * in the zone. Questions look back: a bare weekday or month that chrono puts in the future ("Monday"
 * said on a Saturday, "March" said in November) is the last one.
 */
function periodOf(point: ParsedComponents, text: string, clock: Clock): { from: TZDate; to: TZDate } {
  const unit = unitWord(text) ?? (point.isCertain('day') || point.isCertain('weekday') ? 'day' : point.isCertain('month') ? 'month' : 'year');
  let at = new TZDate(point.date().getTime(), clock.timeZone);
  if (at.getTime() > clock.now && !tokens(text).includes('next')) {
    if (point.isCertain('weekday') && !point.isCertain('day')) at = subWeeks(at, 1);
    else if (point.isCertain('month') && !point.isCertain('year')) at = subYears(at, 1);
  }
  const from = STARTS[unit](at);
  return { from, to: NEXT[unit](from) };
}

/** "Oct 1, 2026", in the zone. */
function dayLabel(at: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric', year: 'numeric' }).format(at);
}

/** The days of a period: one day, the first and the last ("Oct 1, 2026 – Oct 31, 2026"), "since …", "before …". */
export function rangeLabel(from: number | null, to: number | null, timeZone: string): string {
  const zone = zoneOf(timeZone);
  if (from === null) return to === null ? 'any time' : `before ${dayLabel(to, zone)}`;
  const first = dayLabel(from, zone);
  if (to === null) return `since ${first}`;
  const last = dayLabel(Math.max(from, to - 1), zone);
  return first === last ? first : `${first} – ${last}`;
}

function range(from: number | null, to: number | null, said: string | null, timeZone: string): AskAllRange {
  return { from, to, said, label: rangeLabel(from, to, timeZone) };
}

/** The word before position `index` of `text`, and where it starts. */
function wordBefore(text: string, index: number): { word: string; at: number } | undefined {
  const before = text.slice(0, index);
  const trimmed = before.trimEnd();
  const at = trimmed.search(/[\p{L}]+$/u);
  return at < 0 ? undefined : { word: trimmed.slice(at).toLowerCase(), at };
}

/**
 * The period a question names, relative to `now` in `timeZone` (IANA; UTC when unknown or invalid),
 * and the question without those words. The first phrase that names a period counts:
 * - a day, week, month, quarter or year ("yesterday", "last week", "in October", "last year"): all of it;
 * - a count of units ("the last 2 weeks", "past few days", "the past month"): from then up to now;
 * - "since"/"after" a point: from it up to now; "before"/"until": everything before it;
 * - "from A to B", "between A and B": from the start of A to the end of B.
 */
export function datesInQuestion(question: string, options: { now: number; timeZone?: string | null }): QuestionDates {
  const clock: Clock = { now: options.now, timeZone: zoneOf(options.timeZone) };
  const instant = new Date(clock.now);
  const results = chrono()
    .casual.parse(question, { instant, timezone: tzOffset(clock.timeZone, instant) })
    .filter(namesPeriod);
  const first = results[0];
  if (!first) return { range: null, rest: question };

  let start = first.index;
  let end = first.index + first.text.length;
  const period = periodOf(first.start, first.text, clock);
  let from: number | null = period.from.getTime();
  let to: number | null = period.to.getTime();
  const words = tokens(first.text);
  if (first.tags().has('result/relativeDate') && (words[0] === 'past' || words.some((w) => /^\d+$/.test(w) || COUNT_WORDS.has(w)))) {
    from = startOfDay(new TZDate(first.start.date().getTime(), clock.timeZone)).getTime();
    to = null;
  } else if (first.end) {
    to = periodOf(first.end, first.text, clock).to.getTime();
  }
  const before = wordBefore(question, start);
  const second = results[1];
  if (before?.word === 'between' && second && question.slice(end, second.index).trim().toLowerCase() === 'and') {
    to = periodOf(second.start, second.text, clock).to.getTime();
    end = second.index + second.text.length;
    start = before.at;
  } else if (before && OPEN_FROM.has(before.word)) {
    to = null;
    start = before.at;
  } else if (before && OPEN_UNTIL.has(before.word)) {
    to = from;
    from = null;
    start = before.at;
  }
  const said = question.slice(start, end);
  const rest = `${question.slice(0, start)} ${question.slice(end)}`.replace(/\s+/g, ' ').trim();
  return { range: range(from, to, said, clock.timeZone), rest };
}

/** The period of explicit `from`/`to` days (YYYY-MM-DD, both included) in the zone; either may be open. */
export function rangeOfDays(days: { from?: string; to?: string }, timeZone: string | null | undefined): AskAllRange | null {
  if (days.from === undefined && days.to === undefined) return null;
  const zone = zoneOf(timeZone);
  const startOf = (day: string) => {
    const [y, m, d] = day.split('-').map(Number);
    return TZDate.tz(zone, y!, m! - 1, d!).getTime();
  };
  const from = days.from === undefined ? null : startOf(days.from);
  const to = days.to === undefined ? null : addDays(new TZDate(startOf(days.to), zone), 1).getTime();
  return range(from, to, null, zone);
}
