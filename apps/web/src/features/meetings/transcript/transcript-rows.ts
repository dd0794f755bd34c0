import type { MeetingEvent } from '@mbox/shared/capture-events';
import type { Message } from '@mbox/shared/meeting';
import { startsSpeakerRun } from '../merge-lines';

/** One row of the transcript's virtual list: a caption line, or a gap in the capture shown in place. */
export type TranscriptRow =
  | { type: 'line'; key: string; message: Message; startsRun: boolean }
  | { type: 'gap'; key: string; gap: MeetingEvent };

/**
 * The lines with the capture gaps placed by time: a gap goes before the first line spoken at or after
 * its start. The line after a gap starts a new run (name and time shown again), since the gap breaks it.
 */
export function transcriptRows(messages: readonly Message[], gaps: readonly MeetingEvent[]): TranscriptRow[] {
  const sorted = gaps.length > 1 ? [...gaps].sort((a, b) => a.startedAt - b.startedAt) : gaps;
  const rows: TranscriptRow[] = [];
  let next = 0;
  messages.forEach((message, index) => {
    let afterGap = false;
    while (next < sorted.length && sorted[next]!.startedAt <= message.spokenAt) {
      const gap = sorted[next++]!;
      rows.push({ type: 'gap', key: `gap:${gap.key}`, gap });
      afterGap = true;
    }
    rows.push({ type: 'line', key: message.key, message, startsRun: afterGap || startsSpeakerRun(messages, index) });
  });
  for (; next < sorted.length; next++) rows.push({ type: 'gap', key: `gap:${sorted[next]!.key}`, gap: sorted[next]! });
  return rows;
}
