import { z } from 'zod';
import { meetingDetailSchema } from './meeting.js';
import { summaryListSchema } from './summary.js';

/** File formats of `GET /v1/meeting/{id}/export?format=` (docs/export.md). */
export const EXPORT_FORMATS = ['md', 'txt', 'srt', 'vtt', 'json', 'pdf'] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

/** What the web app's Export menu calls each format, in menu order. */
export const EXPORT_FORMAT_LABELS: Record<ExportFormat, string> = {
  md: 'Markdown',
  txt: 'Plain text',
  srt: 'Subtitles (SRT)',
  vtt: 'Subtitles (WebVTT)',
  json: 'JSON',
  pdf: 'PDF',
};

/**
 * The JSON export: the meeting as `GET /v1/meeting/{id}` answers it and its summaries as
 * `GET /v1/summary-list/{id}` answers them, unchanged, so a script reads it with the same types.
 */
export const meetingExportSchema = z.object({
  meeting: meetingDetailSchema,
  summaries: summaryListSchema,
});
export type MeetingExport = z.infer<typeof meetingExportSchema>;

/** Path of a meeting's export in a format; cookie-authenticated in the browser, bearer for scripts. */
export function meetingExportPath(meetingId: string, format: ExportFormat): string {
  return `/v1/meeting/${encodeURIComponent(meetingId)}/export?format=${format}`;
}
