import { z } from 'zod';
import { timestampSchema } from './input-hygiene.js';
import { MEET_CODE_PATTERN } from './meet-code.js';

export { MEET_CODE_PATTERN };

export const MAX_LINE_TEXT = 20_000;
export const MAX_LINES_PER_BATCH = 500;

/** The meeting a batch of lines belongs to (POST /v1/transcript/lines, ARCHITECTURE.md). */
export const ingestMeetingSchema = z.strictObject({
  /** One capture session of the extension: one tab in one call. */
  sessionId: z.string().trim().min(1).max(100),
  meetCode: z.string().regex(MEET_CODE_PATTERN, 'must be a Meet code like abc-defg-hij'),
  title: z.string().max(500).optional(),
  startedAt: timestampSchema,
  participants: z.array(z.string().trim().min(1).max(200)).max(500).optional(),
});

export const transcriptLineSchema = z.strictObject({
  /** Stable id of the caption block within the session. */
  captionId: z.string().trim().min(1).max(100),
  /** Grows each time Meet rewrites the block; a lower or equal revision never overwrites a higher one. */
  revision: z.number().int().nonnegative().max(1_000_000),
  speaker: z.string().trim().min(1).max(200),
  avatar: z.string().max(2000).optional(),
  text: z.string().max(MAX_LINE_TEXT),
  spokenAt: timestampSchema,
  final: z.boolean(),
});
export type TranscriptLine = z.infer<typeof transcriptLineSchema>;

export const ingestLinesInputSchema = z.strictObject({
  meeting: ingestMeetingSchema,
  lines: z.array(transcriptLineSchema).max(MAX_LINES_PER_BATCH),
});
export type IngestLinesInput = z.infer<typeof ingestLinesInputSchema>;

export const ingestLinesOutputSchema = z.object({
  meetingKey: z.string(),
  /** Lines stored or updated by this batch (resent or older revisions are not counted). */
  accepted: z.number().int(),
});
export type IngestLinesOutput = z.infer<typeof ingestLinesOutputSchema>;

export const endMeetingInputSchema = z.strictObject({
  sessionId: z.string().trim().min(1).max(100),
  finishedAt: timestampSchema,
});
export const endMeetingOutputSchema = z.object({ meetingKey: z.string().nullable() });
