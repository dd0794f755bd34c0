import { z } from 'zod';

/** A moment as a Date or epoch milliseconds. */
export type DateInput = Date | number;

export const DEFAULT_TIME_ZONE = 'UTC';

const knownZones = new Map<string, boolean>();

/** True for names Intl knows (IANA zones such as Europe/Berlin, and UTC). */
export function isValidTimeZone(zone: string): boolean {
  let known = knownZones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      known = zone.length > 0;
    } catch {
      known = false;
    }
    knownZones.set(zone, known);
  }
  return known;
}

export const timeZoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isValidTimeZone, { message: 'Unknown time zone: expected an IANA name such as Europe/Berlin' });

/**
 * One formatter per zone, made once: building an Intl.DateTimeFormat (or date-fns's tz context) costs
 * far more than formatting with it, and a list formats a day per meeting. A stored zone that Intl no
 * longer knows must not break a page: such dates fall back to UTC.
 */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();

function dayFormatter(timeZone: string): Intl.DateTimeFormat {
  const zone = isValidTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  let formatter = dayFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(zone, formatter);
  }
  return formatter;
}

/** en-US numeric dates read MM/DD/YYYY; the parts are the fallback should a runtime write them otherwise. */
const US_DATE = /^(\d{2})\/(\d{2})\/(\d+)$/;

/** The calendar day a moment falls on in the zone, written by the zone's formatter. */
function formattedDayKey(date: DateInput, timeZone: string): string {
  const formatter = dayFormatter(timeZone);
  const match = US_DATE.exec(formatter.format(date));
  if (match) return `${match[3]!.padStart(4, '0')}-${match[1]}-${match[2]}`;
  const part = (type: Intl.DateTimeFormatPartTypes) => formatter.formatToParts(date).find((p) => p.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at a moment, in milliseconds (its wall clock minus UTC). */
function utcOffsetAt(time: number, zone: string): number {
  let formatter = offsetFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormatters.set(zone, formatter);
  }
  const wall: Record<string, number> = {};
  for (const { type, value } of formatter.formatToParts(time)) wall[type] = Number(value);
  const wallAsUtc = Date.UTC(wall.year!, wall.month! - 1, wall.day!, wall.hour!, wall.minute!, wall.second!);
  return wallAsUtc - (time - (((time % 1000) + 1000) % 1000));
}

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** Per zone, per UTC week: the zone's offset when it is the same at both ends of the week, else null. */
const weekOffsets = new Map<string, Map<number, number | null>>();

/**
 * The day a moment falls on in the zone, counted in days since 1970-01-01 there; null in a week in
 * which the zone's offset changes. The offset is found once per UTC week (at both ends; zones change
 * theirs months apart): a list asks for a day per meeting, and formatting is what costs.
 */
function localDayNumber(time: number, zone: string): number | null {
  let offsets = weekOffsets.get(zone);
  if (!offsets) {
    offsets = new Map();
    weekOffsets.set(zone, offsets);
  }
  const week = Math.floor(time / WEEK_MS);
  let offset = offsets.get(week);
  if (offset === undefined) {
    const start = utcOffsetAt(week * WEEK_MS, zone);
    offset = start === utcOffsetAt((week + 1) * WEEK_MS - 1, zone) ? start : null;
    // Bounded: a server lists many users' meetings over many years.
    if (offsets.size >= 5_000) offsets.clear();
    offsets.set(week, offset);
  }
  return offset === null ? null : Math.floor((time + offset) / DAY_MS);
}

/** yyyy-MM-dd of a day number (days since 1970-01-01). */
function dayNumberKey(day: number): string {
  const date = new Date(day * DAY_MS);
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${month}-${String(date.getUTCDate()).padStart(2, '0')}`;
}

/** The calendar day (yyyy-MM-dd) a moment falls on in the given zone. */
export function dayKey(date: DateInput, timeZone: string): string {
  const time = +date;
  const zone = isValidTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  const day = Number.isFinite(time) ? localDayNumber(time, zone) : null;
  return day === null ? formattedDayKey(time, zone) : dayNumberKey(day);
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The long English label of a day: 'Sunday, November 22, 2026'. */
function dateLabel(date: Date): string {
  return `${WEEKDAYS[date.getUTCDay()]}, ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${String(date.getUTCFullYear()).padStart(4, '0')}`;
}

/** The same label from a day key (as the grouped meeting list returns them), e.g. 'Sunday, November 22, 2026'. */
export function dayKeyLabel(key: string): string {
  const [year, month, day] = key.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined) return key;
  const utcNoon = new Date(Date.UTC(year, month - 1, day, 12));
  if (Number.isNaN(utcNoon.getTime())) return key;
  return dateLabel(utcNoon);
}

/** Long English date label of the day a moment falls on, e.g. 'Sunday, November 22, 2026'. */
export function formatDayLabel(date: DateInput, timeZone: string): string {
  return dayKeyLabel(dayKey(date, timeZone));
}

export interface DayGroup<T> {
  /** yyyy-MM-dd in the given zone. */
  day: string;
  label: string;
  items: T[];
}

/**
 * Groups items by the day they fall on in the zone; newest day first, newest item first within a day.
 * Each day's key and label are written once: an item on the day number of the one before it joins
 * that day's group.
 */
export function groupByDay<T>(items: readonly T[], dateOf: (item: T) => DateInput, timeZone: string): DayGroup<T>[] {
  const zone = isValidTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  const sorted = items
    .map((item) => ({ item, time: +dateOf(item) }))
    .sort((a, b) => b.time - a.time);
  const groups: DayGroup<T>[] = [];
  let lastDayNumber: number | null = null;
  for (const { item, time } of sorted) {
    const dayNumber = Number.isFinite(time) ? localDayNumber(time, zone) : null;
    const last = groups.at(-1);
    if (last && dayNumber !== null && dayNumber === lastDayNumber) {
      last.items.push(item);
      continue;
    }
    lastDayNumber = dayNumber;
    const day = dayNumber === null ? formattedDayKey(time, zone) : dayNumberKey(dayNumber);
    if (last?.day === day) last.items.push(item);
    else groups.push({ day, label: dayNumber === null ? dayKeyLabel(day) : dateLabel(new Date(dayNumber * DAY_MS)), items: [item] });
  }
  return groups;
}

/** '(N meeting(s))' style count shown beside a day label (product.md, Screens). */
export function meetingCountLabel(count: number): string {
  return `(${count} ${count === 1 ? 'meeting' : 'meetings'})`;
}

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a yyyy-MM-dd text names a day of the calendar (no 2026-02-30). */
export function isCalendarDay(text: string): boolean {
  if (!CALENDAR_DAY.test(text)) return false;
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A calendar day without a time, as yyyy-MM-dd (due dates, date filters). */
export const calendarDaySchema = z
  .string()
  .trim()
  .regex(CALENDAR_DAY, 'must be a date written YYYY-MM-DD')
  .refine(isCalendarDay, 'is not a day of the calendar');
