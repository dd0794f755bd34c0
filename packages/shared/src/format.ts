import { meetingDurationMinutes } from './stats.js';
import { isValidTimeZone, type DateInput } from './days.js';

/** 'for N minutes' in whole minutes, or null when the meeting has no finish after its start (product.md, Limits). */
export function formatMeetingDuration(startedAt: DateInput, finishedAt: DateInput | null): string | null {
  const minutes = meetingDurationMinutes(startedAt, finishedAt);
  if (minutes === null) return null;
  return `for ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** Message time as hh:mm, 2-digit en-US (e.g. '09:05 AM'), in the given zone (the device's when unknown). */
export function formatMessageTime(spokenAt: DateInput, timeZone?: string): string {
  return new Date(spokenAt).toLocaleTimeString('en-US', {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: timeZone && isValidTimeZone(timeZone) ? timeZone : undefined,
  });
}
