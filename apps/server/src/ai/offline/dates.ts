import type * as ChronoEnglish from 'chrono-node/en';
import { dayKey } from '@mbox/shared';
import { lazyRequire } from '../../lazy-require.js';

/** Dates said in a meeting ("by Friday", "next Tuesday", "on the 12th") or asked about ("last month") are read by chrono-node. */
export const chrono = lazyRequire<typeof ChronoEnglish>('chrono-node/en');

/** When and where a meeting took place: what "Friday" or "tomorrow" is relative to. */
export interface MeetingClock {
  /** Epoch ms of the meeting's first line (absent for documents). */
  start?: number;
  /** IANA time zone of the meeting's owner; UTC when unknown. */
  timeZone?: string;
}

/** Minutes east of UTC of a time zone at an instant (what chrono takes as a reference zone). */
function offsetMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return Math.round((asUtc - Math.floor(at.getTime() / 60_000) * 60_000) / 60_000);
}

function validZone(timeZone: string | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

export interface DueDate {
  /** The words that said it ("Friday", "next Tuesday"), as chrono-node found them. */
  said: string;
  /** The date in the meeting's time zone: "Fri, Mar 8, 2024". */
  label: string;
  /** The same day as yyyy-MM-dd. */
  day: string;
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A weekday said without its date ("on Tuesday morning") that chrono-node put before the meeting is the
 * next one. Its forwardDate works in the process's time zone, so where the process is ahead of the
 * meeting's zone it kept the meeting's own Tuesday morning, hours before the meeting.
 */
function weekdayForward(result: ChronoEnglish.ParsedResult, instant: Date): Date {
  const date = result.start.date();
  const bareWeekday = result.start.isCertain('weekday') && !result.start.isCertain('day');
  return bareWeekday && date.getTime() <= instant.getTime() ? new Date(date.getTime() + WEEK_MS) : date;
}

/** The first date a sentence names, resolved forward from the meeting's date ("by Friday" → the coming Friday). */
export function dueDate(sentence: string, clock: MeetingClock): DueDate | undefined {
  if (clock.start === undefined) return undefined;
  const timeZone = validZone(clock.timeZone);
  const instant = new Date(clock.start);
  const found = chrono().casual.parse(sentence, { instant, timezone: offsetMinutes(instant, timeZone) }, { forwardDate: true });
  const day = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
  const meetingDay = day.format(instant);
  // A bare time ("at ten") or number is not a due date, nor is "now", "in a second" or "today" (the
  // meeting's own day) or "the last meeting"; a later day is.
  const dated = found.map((r) => ({ said: r.text, date: weekdayForward(r, instant) }));
  const result = found.findIndex(
    (r, i) =>
      (r.start.isCertain('day') || r.start.isCertain('weekday') || r.start.isCertain('month')) &&
      dated[i]!.date.getTime() > instant.getTime() &&
      day.format(dated[i]!.date) !== meetingDay,
  );
  if (result < 0) return undefined;
  const { said, date } = dated[result]!;
  return { said, label: day.format(date), day: dayKey(date, timeZone) };
}

/**
 * A time in a meeting for topic ranges: the clock time in the owner's time zone ("10:42") when the
 * zone is known, else the hours and minutes since the meeting started ("0:12").
 */
export function clockTime(at: number, clock: MeetingClock): string {
  if (clock.timeZone) {
    return new Intl.DateTimeFormat('en-GB', { timeZone: validZone(clock.timeZone), hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(at),
    );
  }
  const minutes = Math.max(0, Math.floor((at - (clock.start ?? at)) / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${h}:${String(m).padStart(2, '0')}`;
}
