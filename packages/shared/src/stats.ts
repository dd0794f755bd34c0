import { tz } from '@date-fns/tz';
import { addWeeks, format, startOfDay, startOfMonth, startOfWeek, subDays, subWeeks } from 'date-fns';
import { z } from 'zod';
import { DEFAULT_TIME_ZONE, isValidTimeZone, type DateInput } from './days.js';

/** Weeks shown by the meetings-per-week chart, the current one included. */
export const STATS_WEEKS = 12;
/** Days counted as "last 7 days": today and the six before it, in the user's zone. */
export const STATS_RECENT_DAYS = 7;
/**
 * A caption block counts as talk until the next one starts, but a gap longer than this is silence
 * (or a paused capture), so one block never counts for more.
 */
export const TALK_GAP_CAP_MS = 3 * 60_000;

export interface StatsMeeting {
  startedAt: DateInput;
  finishedAt: DateInput | null;
  isAnalyzed: boolean;
}

export const hoursMinutesSchema = z.object({ hours: z.number().int(), minutes: z.number().int() });
export type HoursMinutes = z.infer<typeof hoursMinutesSchema>;

export const meetingStatsSchema = z.object({
  total: z.number().int(),
  last7Days: z.number().int(),
  thisMonth: z.number().int(),
  analyzed: z.number().int(),
  /** floor(analyzed / total × 100); 0 without meetings. */
  analyzedPercent: z.number().int(),
  totalDuration: hoursMinutesSchema,
  thisMonthDuration: hoursMinutesSchema,
  /** Oldest first; weeks start on Monday in the user's zone. */
  perWeek: z.array(z.object({ weekStart: z.string(), count: z.number().int() })),
  timeZone: z.string(),
});
export type MeetingStats = z.infer<typeof meetingStatsSchema>;

/** Whole minutes a meeting lasted, or null when its finish is not after its start (product.md, Limits). */
export function meetingDurationMinutes(startedAt: DateInput, finishedAt: DateInput | null): number | null {
  if (finishedAt === null) return null;
  const ms = +finishedAt - +startedAt;
  return ms > 0 ? Math.floor(ms / 60_000) : null;
}

function durationMs(meeting: StatsMeeting): number {
  if (meeting.finishedAt === null) return 0;
  return Math.max(0, +meeting.finishedAt - +meeting.startedAt);
}

export function toHoursMinutes(ms: number): HoursMinutes {
  const totalMinutes = Math.floor(ms / 60_000);
  return { hours: Math.floor(totalMinutes / 60), minutes: totalMinutes % 60 };
}

/** The dashboard figures of product.md, Limits, plus meetings per week, with calendar boundaries in the zone. */
export function computeMeetingStats(meetings: readonly StatsMeeting[], now: DateInput, timeZone: string): MeetingStats {
  const zone = isValidTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  const inZone = { in: tz(zone) };
  const recentFrom = +subDays(startOfDay(now, inZone), STATS_RECENT_DAYS - 1, inZone);
  const monthFrom = +startOfMonth(now, inZone);
  const currentWeek = startOfWeek(now, { ...inZone, weekStartsOn: 1 });
  const firstWeek = subWeeks(currentWeek, STATS_WEEKS - 1, inZone);
  const weekStarts = Array.from({ length: STATS_WEEKS }, (_, i) => addWeeks(firstWeek, i, inZone));
  // Bounds in the zone, not multiples of 7 × 24 h: a week holding a DST change is an hour shorter or longer.
  const weekBounds = [...weekStarts, addWeeks(currentWeek, 1, inZone)].map(Number);
  const perWeek = weekStarts.map((start) => ({ weekStart: format(start, 'yyyy-MM-dd', inZone), count: 0 }));

  let last7Days = 0;
  let thisMonth = 0;
  let analyzed = 0;
  let totalMs = 0;
  let monthMs = 0;
  for (const meeting of meetings) {
    const start = +meeting.startedAt;
    const ms = durationMs(meeting);
    totalMs += ms;
    if (meeting.isAnalyzed) analyzed += 1;
    if (start >= recentFrom) last7Days += 1;
    if (start >= monthFrom) {
      thisMonth += 1;
      monthMs += ms;
    }
    const week = weekBounds.findIndex((from, i) => i < STATS_WEEKS && start >= from && start < weekBounds[i + 1]!);
    if (week >= 0) perWeek[week]!.count += 1;
  }
  const total = meetings.length;
  return {
    total,
    last7Days,
    thisMonth,
    analyzed,
    analyzedPercent: total === 0 ? 0 : Math.floor((analyzed / total) * 100),
    totalDuration: toHoursMinutes(totalMs),
    thisMonthDuration: toHoursMinutes(monthMs),
    perWeek,
    timeZone: zone,
  };
}

export interface TalkMessage {
  user: string;
  spokenAt: DateInput;
}

export const speakerTalkTimeSchema = z.object({
  user: z.string(),
  ms: z.number().int(),
  /** Share of the meeting's talk time, whole percent (rounded down). */
  percent: z.number().int(),
  messages: z.number().int(),
});
export const talkTimeSchema = z.object({
  totalMs: z.number().int(),
  speakers: z.array(speakerTalkTimeSchema),
});
export type TalkTime = z.infer<typeof talkTimeSchema>;

/**
 * Talk time per speaker from message times: a message lasts until the next one starts (capped at
 * TALK_GAP_CAP_MS); the last one lasts until the meeting's finish, capped the same way, or 0 without one.
 * Speakers come most talkative first.
 */
export function computeTalkTime(messages: readonly TalkMessage[], finishedAt: DateInput | null = null): TalkTime {
  const ordered = [...messages].sort((a, b) => +a.spokenAt - +b.spokenAt);
  const bySpeaker = new Map<string, { ms: number; messages: number }>();
  ordered.forEach((message, i) => {
    const next = ordered[i + 1];
    const end = next ? +next.spokenAt : finishedAt === null ? +message.spokenAt : +finishedAt;
    const ms = Math.min(TALK_GAP_CAP_MS, Math.max(0, end - +message.spokenAt));
    const entry = bySpeaker.get(message.user) ?? { ms: 0, messages: 0 };
    entry.ms += ms;
    entry.messages += 1;
    bySpeaker.set(message.user, entry);
  });
  const totalMs = [...bySpeaker.values()].reduce((sum, s) => sum + s.ms, 0);
  const speakers = [...bySpeaker.entries()]
    .map(([user, s]) => ({
      user,
      ms: s.ms,
      percent: totalMs === 0 ? 0 : Math.floor((s.ms / totalMs) * 100),
      messages: s.messages,
    }))
    .sort((a, b) => b.ms - a.ms || b.messages - a.messages || a.user.localeCompare(b.user));
  return { totalMs, speakers };
}
