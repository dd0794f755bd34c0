import { Readable } from 'node:stream';
import {
  dayKey,
  DEFAULT_TIME_ZONE,
  isValidTimeZone,
  meetingExportSchema,
  type ExportFormat,
  type MeetingDetail,
  type SummaryList,
} from '@mbox/shared';
import type { AppDeps } from '../../deps.js';
import type { AuthUser } from '../auth/service.js';
import { getMeeting, jsonAt, meetingDetailJson, readMeetingInPages, type MeetingInPages } from '../meeting/service.js';
import { listSummaries } from '../summary/service.js';
import { exportDocument } from './document.js';
import { attachmentDisposition } from './filename.js';
import { toMarkdown } from './formats/markdown.js';
import { toPdf } from './formats/pdf.js';
import { toSrt, toVtt } from './formats/subtitles.js';
import { toText } from './formats/text.js';

export interface ExportFile {
  /** The Content-Disposition header: an attachment named `<title>-<yyyy-mm-dd>.<ext>`. */
  disposition: string;
  contentType: string;
  body: string | Readable;
}

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  json: 'application/json; charset=utf-8',
  pdf: 'application/pdf',
};

/** The user's time zone, or the default when what is stored is not a zone this runtime knows. */
export function exportTimeZone(user: Pick<AuthUser, 'timezone'>): string {
  return isValidTimeZone(user.timezone) ? user.timezone : DEFAULT_TIME_ZONE;
}

/** What every format is written from: the meeting and its summaries as the owner's calls answer them. */
async function loadExport(deps: AppDeps, user: Pick<AuthUser, 'id' | 'timezone'>, meetingId: string) {
  const detail = await getMeeting(deps, user.id, meetingId);
  const summaries = await listSummaries(deps, user.id, meetingId);
  const timeZone = exportTimeZone(user);
  return { detail, summaries, timeZone, day: dayKey(detail.meet.date, timeZone) };
}

/**
 * The JSON export, `JSON.stringify({ meeting, summaries }, null, 2)` written a page of lines at a time,
 * each piece checked like the calls' output schemas: the file holds exactly what they answer.
 */
async function* jsonExport(meeting: MeetingInPages, summaries: SummaryList): AsyncGenerator<string> {
  const checkedSummaries = meetingExportSchema.shape.summaries.parse(summaries);
  yield '{\n  "meeting": ';
  yield* meetingDetailJson(meeting, 2, 1);
  yield `,\n  "summaries": ${jsonAt(checkedSummaries, 2, 1)}\n}\n`;
}

/** A meeting read whole, as one page. */
async function* onePage(detail: MeetingDetail): AsyncGenerator<MeetingDetail['messages']> {
  yield detail.messages;
}

/** A meeting's JSON and Markdown exports, read once (the account's data export holds both). */
export async function meetingJsonAndMarkdown(
  deps: AppDeps,
  user: Pick<AuthUser, 'id' | 'timezone'>,
  meetingId: string,
): Promise<{ json: string; markdown: string }> {
  const { detail, summaries, timeZone } = await loadExport(deps, user, meetingId);
  let json = '';
  for await (const piece of jsonExport({ meet: detail.meet, pages: onePage(detail) }, summaries)) json += piece;
  return { json, markdown: toMarkdown(await exportDocument(detail, summaries, timeZone)) };
}

/**
 * The user's meeting as a file: what the owner sees in the app (an encrypted meeting's lines and
 * summaries opened with the server's key, as the meeting and summary calls answer them; a line that
 * cannot be opened reads as the same placeholder). Another user's meeting, or none: NOT_FOUND.
 * `signal` stops a PDF being written when the client leaves. The JSON file streams, a page of lines at
 * a time; the other formats are written from the meeting read whole (bounded by MAX_LINES_PER_MEETING
 * and MAX_MEETING_TEXT_BYTES).
 */
export async function exportMeeting(
  deps: AppDeps,
  user: Pick<AuthUser, 'id' | 'timezone'>,
  meetingId: string,
  format: ExportFormat,
  signal: AbortSignal,
): Promise<ExportFile> {
  const file = (title: string, day: string, body: string | Readable): ExportFile => ({
    disposition: attachmentDisposition(title, day, format),
    contentType: EXPORT_CONTENT_TYPES[format],
    body,
  });
  if (format === 'json') {
    const meeting = await readMeetingInPages(deps, user.id, meetingId);
    const summaries = await listSummaries(deps, user.id, meetingId);
    return file(meeting.meet.title, dayKey(meeting.meet.date, exportTimeZone(user)), Readable.from(jsonExport(meeting, summaries)));
  }
  const { detail, summaries, timeZone, day } = await loadExport(deps, user, meetingId);
  const whole = (body: string | Readable) => file(detail.meet.title, day, body);
  const doc = await exportDocument(detail, summaries, timeZone);
  switch (format) {
    case 'md':
      return whole(toMarkdown(doc));
    case 'txt':
      return whole(toText(doc));
    case 'srt':
      return whole(toSrt(doc));
    case 'vtt':
      return whole(toVtt(doc));
    case 'pdf':
      return whole(await toPdf(doc, signal));
  }
}
