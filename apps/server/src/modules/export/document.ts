import { citationTimesLabel, formatDayLabel, meetingDurationMinutes, uniqueParticipants, type SummaryList } from '@mbox/shared';
import type { MeetingInPages } from '../meeting/whole-meeting.js';
import { summaryBlocks, type Block } from './summary-blocks.js';

export interface ExportLine {
  speaker: string;
  /** HH:mm, 24-hour, in the owner's time zone. */
  clock: string;
  /** Milliseconds from the meeting's start (never negative): where a subtitle cue starts. */
  offsetMs: number;
  /** The line as spoken (not the AI-fixed text), whitespace collapsed to single spaces. */
  text: string;
}

/**
 * What every format writes, read once from the owner's meeting, summaries and time zone. The lines come
 * a page at a time, as the format writes them, and can be read once.
 */
export interface ExportDocument {
  title: string;
  /** e.g. 'Friday, November 20, 2026, 16:00 (Europe/Berlin)'. */
  started: string;
  /** e.g. '42 minutes'; 'in progress' while it runs; null when the finish is not after the start. */
  duration: string | null;
  participants: string[];
  summaries: { title: string; blocks: Block[] }[];
  lineCount: number;
  lines: AsyncIterable<ExportLine[]>;
}

const clockFormatters = new Map<string, Intl.DateTimeFormat>();

function clockFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = clockFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clockFormatters.set(timeZone, formatter);
  }
  return formatter;
}

function durationText(date: number, finishedAt: number | null): string | null {
  if (finishedAt === null) return 'in progress';
  const minutes = meetingDurationMinutes(date, finishedAt);
  if (minutes === null) return null;
  const hours = Math.floor(minutes / 60);
  const rest = `${minutes % 60} minute${minutes % 60 === 1 ? '' : 's'}`;
  return hours ? `${hours} hour${hours === 1 ? '' : 's'} ${rest}` : rest;
}

/** Single spaces, no line breaks: one transcript line is one line of every format. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `timeZone` is the owner's, a zone Intl knows. */
export async function exportDocument(meeting: MeetingInPages, list: SummaryList, timeZone: string): Promise<ExportDocument> {
  const { meet } = meeting;
  const clock = clockFormatter(timeZone);
  const summaries = await Promise.all(
    list.summaries.map(async (summary) => ({
      title: summary.customPrompt ? `${summary.title}: ${summary.customPrompt}` : summary.title,
      // Cited lines as their times, in the clock of the transcript lines below.
      blocks: await summaryBlocks(summary.text, (numbers) => citationTimesLabel(numbers, summary.citations, (t) => clock.format(t))),
    })),
  );
  const time = clock.format(meet.date);
  return {
    title: meet.title,
    started: `${formatDayLabel(meet.date, timeZone)}, ${time} (${timeZone})`,
    duration: durationText(meet.date, meet.finishedAt),
    participants: meet.users.length ? meet.users : uniqueParticipants(meeting.speakers),
    summaries,
    lineCount: meeting.lineCount,
    lines: (async function* () {
      for await (const page of meeting.pages) {
        yield page.map((m) => ({
          speaker: oneLine(m.user) || 'Unknown speaker',
          clock: clock.format(m.spokenAt),
          offsetMs: Math.max(0, m.spokenAt - meet.date),
          text: oneLine(m.text),
        }));
      }
    })(),
  };
}
