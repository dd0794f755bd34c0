import type { HoursMinutes } from '@mbox/shared/stats';

/** '3h 05m', '45m' or '0m': hours only when there are any, minutes always two digits after hours. */
export function formatHoursMinutes({ hours, minutes }: HoursMinutes): string {
  if (hours === 0) return `${minutes}m`;
  return `${hours}h ${String(minutes).padStart(2, '0')}m`;
}

/** A week's axis label from its 'yyyy-MM-dd' Monday: 'Mar 9'. Parsed as a calendar date, never as UTC. */
export function weekLabel(weekStart: string): string {
  const [year, month, day] = weekStart.split('-').map(Number);
  if (!year || !month || !day) return weekStart;
  return new Date(year, month - 1, day).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
}

/** Talk time as whole minutes and seconds: '12m 04s', '38s'. */
export function formatTalkTime(ms: number): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  if (minutes === 0) return `${seconds}s`;
  return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
}
