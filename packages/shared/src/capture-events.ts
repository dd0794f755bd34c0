import { z } from 'zod';
import { timestampSchema } from './input-hygiene.js';
import { ingestMeetingSchema } from './transcript.js';

/**
 * Capture gaps: stretches of a meeting the extension could not transcribe. The transcript shows each one
 * in place ("Captions were off 10:02–10:07"), so a missing passage is never mistaken for silence.
 */
export const CAPTURE_EVENT_KINDS = ['captions-off', 'region-missing', 'no-captions', 'capture-broken'] as const;
export const captureEventKindSchema = z.enum(CAPTURE_EVENT_KINDS);
export type CaptureEventKind = z.infer<typeof captureEventKindSchema>;

export const MAX_EVENTS_PER_BATCH = 100;

/** One gap as the extension reports it; sent again with `endedAt` once it closes. */
export const captureEventSchema = z
  .strictObject({
    /** The extension's id for the gap: resending it (open, then closed) updates one event. */
    eventId: z.string().trim().min(1).max(100),
    kind: captureEventKindSchema,
    startedAt: timestampSchema,
    endedAt: timestampSchema.optional(),
  })
  .refine((e) => e.endedAt === undefined || e.endedAt >= e.startedAt, {
    message: 'must not be before startedAt',
    path: ['endedAt'],
  });
export type CaptureEvent = z.infer<typeof captureEventSchema>;

/** POST /v1/transcript/events: the meeting facts create the meeting when no line came yet (captions off from the start). */
export const ingestEventsInputSchema = z.strictObject({
  meeting: ingestMeetingSchema,
  events: z.array(captureEventSchema).min(1).max(MAX_EVENTS_PER_BATCH),
});
export type IngestEventsInput = z.infer<typeof ingestEventsInputSchema>;

export const ingestEventsOutputSchema = z.object({
  meetingKey: z.string(),
  /** Events created or changed by this batch (resent ones are not counted). */
  accepted: z.number().int(),
});
export type IngestEventsOutput = z.infer<typeof ingestEventsOutputSchema>;

/** A gap as the web app reads it; `endedAt` is null while it lasts. */
export const meetingEventSchema = z.object({
  key: z.string(),
  kind: captureEventKindSchema,
  startedAt: z.number(),
  endedAt: z.number().nullable(),
});
export type MeetingEvent = z.infer<typeof meetingEventSchema>;

const CLOSED_GAP_TEXT: Record<CaptureEventKind, string> = {
  'captions-off': 'Captions were off',
  'region-missing': 'Caption region was missing',
  'no-captions': 'No captions',
  'capture-broken': 'Captions could not be read',
};

const OPEN_GAP_TEXT: Record<CaptureEventKind, string> = {
  'captions-off': 'Captions off since',
  'region-missing': 'Caption region missing since',
  'no-captions': 'No captions since',
  'capture-broken': 'Captions unreadable since',
};

/** The transcript's row for a gap: "Captions were off 10:02–10:07", or "Captions off since 10:02" while it lasts. */
export function captureGapText(
  event: Pick<MeetingEvent, 'kind' | 'startedAt' | 'endedAt'>,
  formatTime: (ms: number) => string,
): string {
  if (event.endedAt === null) return `${OPEN_GAP_TEXT[event.kind]} ${formatTime(event.startedAt)}`;
  return `${CLOSED_GAP_TEXT[event.kind]} ${formatTime(event.startedAt)}–${formatTime(event.endedAt)}`;
}
