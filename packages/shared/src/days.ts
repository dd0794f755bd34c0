import { tz } from '@date-fns/tz';
import { format } from 'date-fns';
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

/** A stored zone that Intl no longer knows must not break a page: such dates fall back to UTC. */
function zoneContext(timeZone: string) {
  return { in: tz(isValidTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE) };
}

/** The calendar day (yyyy-MM-dd) a moment falls on in the given zone. */
export function dayKey(date: DateInput, timeZone: string): string {
  return format(date, 'yyyy-MM-dd', zoneContext(timeZone));
}

const LABEL_FORMAT = 'EEEE, MMMM d, yyyy';

/** Long English date label of the day a moment falls on, e.g. 'Sunday, November 22, 2026'. */
export function formatDayLabel(date: DateInput, timeZone: string): string {
  return format(date, LABEL_FORMAT, zoneContext(timeZone));
}

/** The same label from a day key (as the grouped meeting list returns them). */
export function dayKeyLabel(key: string): string {
  const [year, month, day] = key.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined) return key;
  const utcNoon = Date.UTC(year, month - 1, day, 12);
  return Number.isNaN(utcNoon) ? key : formatDayLabel(utcNoon, 'UTC');
}

export interface DayGroup<T> {
  /** yyyy-MM-dd in the given zone. */
  day: string;
  label: string;
  items: T[];
}

/** Groups items by the day they fall on in the zone; newest day first, newest item first within a day. */
export function groupByDay<T>(items: readonly T[], dateOf: (item: T) => DateInput, timeZone: string): DayGroup<T>[] {
  const sorted = items
    .map((item) => ({ item, time: +dateOf(item) }))
    .sort((a, b) => b.time - a.time);
  const groups: DayGroup<T>[] = [];
  for (const { item, time } of sorted) {
    const day = dayKey(time, timeZone);
    const last = groups.at(-1);
    if (last?.day === day) last.items.push(item);
    else groups.push({ day, label: formatDayLabel(time, timeZone), items: [item] });
  }
  return groups;
}

/** '(N meeting(s))' style count shown beside a day label (spec §2). */
export function meetingCountLabel(count: number): string {
  return `(${count} ${count === 1 ? 'meeting' : 'meetings'})`;
}
