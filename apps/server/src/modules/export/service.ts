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
import { getMeeting, jsonAt, meetingDetailJson, readMeetingInPages, type MeetingInPages } from '../meeting/whole-meeting.js';
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
  body: Readable;
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

/** A meeting read whole (as tRPC's meeting.get answers it), as one page. */
function inOnePage(detail: MeetingDetail): MeetingInPages {
  return {
    meet: detail.meet,
    lineCount: detail.messages.length,
    speakers: detail.messages.map((m) => m.user),
    pages: (async function* () {
      yield detail.messages;
    })(),
  };
}

async function text(pieces: AsyncIterable<string>): Promise<string> {
  let whole = '';
  for await (const piece of pieces) whole += piece;
  return whole;
}

/**
 * A meeting's JSON and Markdown exports, read once (the account's data export holds both, one meeting
 * at a time; a meeting is bounded by MAX_LINES_PER_MEETING and MAX_MEETING_TEXT_BYTES).
 */
export async function meetingJsonAndMarkdown(
  deps: AppDeps,
  user: Pick<AuthUser, 'id' | 'timezone'>,
  meetingId: string,
): Promise<{ json: string; markdown: string }> {
  const detail = await getMeeting(deps, user.id, meetingId);
  const summaries = await listSummaries(deps, user.id, meetingId);
  return {
    json: await text(jsonExport(inOnePage(detail), summaries)),
    markdown: await text(toMarkdown(await exportDocument(inOnePage(detail), summaries, exportTimeZone(user)))),
  };
}

/**
 * The user's meeting as a file: what the owner sees in the app (an encrypted meeting's lines and
 * summaries opened with the server's key, as the meeting and summary calls answer them; a line that
 * cannot be opened reads as the same placeholder). Another user's meeting, or none: NOT_FOUND.
 * Every format streams, written as the meeting's lines are read a page at a time (readMeetingInPages);
 * `signal` stops a PDF being written when the client leaves.
 */
export async function exportMeeting(
  deps: AppDeps,
  user: Pick<AuthUser, 'id' | 'timezone'>,
  meetingId: string,
  format: ExportFormat,
  signal: AbortSignal,
): Promise<ExportFile> {
  const meeting = await readMeetingInPages(deps, user.id, meetingId);
  const summaries = await listSummaries(deps, user.id, meetingId);
  const timeZone = exportTimeZone(user);
  const file = (body: Readable): ExportFile => ({
    disposition: attachmentDisposition(meeting.meet.title, dayKey(meeting.meet.date, timeZone), format),
    contentType: EXPORT_CONTENT_TYPES[format],
    body,
  });
  if (format === 'json') return file(Readable.from(jsonExport(meeting, summaries)));
  const doc = await exportDocument(meeting, summaries, timeZone);
  switch (format) {
    case 'md':
      return file(Readable.from(toMarkdown(doc)));
    case 'txt':
      return file(Readable.from(toText(doc)));
    case 'srt':
      return file(Readable.from(toSrt(doc)));
    case 'vtt':
      return file(Readable.from(toVtt(doc)));
    case 'pdf':
      return file(await toPdf(doc, signal));
  }
}
