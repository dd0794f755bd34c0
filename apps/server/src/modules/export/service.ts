import type { Readable } from 'node:stream';
import { dayKey, DEFAULT_TIME_ZONE, isValidTimeZone, meetingExportSchema, type ExportFormat } from '@mbox/shared';
import type { AppDeps } from '../../deps.js';
import type { AuthUser } from '../auth/service.js';
import { getMeeting } from '../meeting/service.js';
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

/**
 * The user's meeting as a file: what the owner sees in the app (an encrypted meeting's lines and
 * summaries opened with the server's key, as the meeting and summary calls answer them; a line that
 * cannot be opened reads as the same placeholder). Another user's meeting, or none: NOT_FOUND.
 * `signal` stops a PDF being written when the client leaves.
 */
export async function exportMeeting(
  deps: AppDeps,
  user: Pick<AuthUser, 'id' | 'timezone'>,
  meetingId: string,
  format: ExportFormat,
  signal: AbortSignal,
): Promise<ExportFile> {
  const detail = await getMeeting(deps, user.id, meetingId);
  const summaries = await listSummaries(deps, user.id, meetingId);
  const timeZone = isValidTimeZone(user.timezone) ? user.timezone : DEFAULT_TIME_ZONE;
  const disposition = attachmentDisposition(detail.meet.title, dayKey(detail.meet.date, timeZone), format);
  const file = (body: string | Readable): ExportFile => ({ disposition, contentType: EXPORT_CONTENT_TYPES[format], body });
  if (format === 'json') {
    // The same check as the calls' output schemas: the file holds exactly what they answer.
    return file(`${JSON.stringify(meetingExportSchema.parse({ meeting: detail, summaries }), null, 2)}\n`);
  }
  const doc = await exportDocument(detail, summaries, timeZone);
  switch (format) {
    case 'md':
      return file(toMarkdown(doc));
    case 'txt':
      return file(toText(doc));
    case 'srt':
      return file(toSrt(doc));
    case 'vtt':
      return file(toVtt(doc));
    case 'pdf':
      return file(await toPdf(doc, signal));
  }
}
