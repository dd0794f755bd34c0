import { z } from 'zod';
import {
  captureEventKindSchema,
  captureEventSchema,
  handshakeRequestSchema,
  handshakeUserSchema,
  ingestMeetingSchema,
  transcriptLineSchema,
  type HandshakeReply,
} from '@mbox/shared';

/**
 * Messages between the extension's parts over chrome.runtime messaging. The worker validates each one:
 * content scripts run inside pages we do not control, so their messages are input like any other.
 */

export const captureHealthSchema = z.object({
  sessionId: z.string().nullable(),
  meetCode: z.string().nullable(),
  inCall: z.boolean(),
  /** The caption region is in the page (captions are on and rendered). */
  regionFound: z.boolean(),
  /** Meet's button offers to turn captions on. */
  captionsOff: z.boolean(),
  /** When a caption line last changed; null before the first one. */
  lastLineAt: z.number().nullable(),
  /** Since when captions have been missing while in the call (a gap in the transcript); null when fine. */
  gapSince: z.number().nullable(),
  /** What the gap in progress is; null when fine. */
  gapKind: captureEventKindSchema.nullable(),
  /** The region shows text no selector can read: Meet changed its page and capture is broken. */
  unreadable: z.boolean(),
  /** The session's latest gaps, newest last. */
  gaps: z.array(captureEventSchema).max(20),
  updatedAt: z.number(),
});
export type CaptureHealth = z.infer<typeof captureHealthSchema>;

export const captureLinesMessageSchema = z.object({
  type: z.literal('capture-lines'),
  meeting: ingestMeetingSchema,
  lines: z.array(transcriptLineSchema),
});
export type CaptureLinesMessage = z.infer<typeof captureLinesMessageSchema>;

export const captureEndMessageSchema = z.object({
  type: z.literal('capture-end'),
  sessionId: z.string().min(1),
  finishedAt: z.number(),
});
export type CaptureEndMessage = z.infer<typeof captureEndMessageSchema>;

/** Gaps opened or closed in the capture; the worker queues them for POST /v1/transcript/events. */
export const captureGapsMessageSchema = z.object({
  type: z.literal('capture-gaps'),
  meeting: ingestMeetingSchema,
  gaps: z.array(captureEventSchema).min(1),
});
export type CaptureGapsMessage = z.infer<typeof captureGapsMessageSchema>;

export const captureHealthMessageSchema = z.object({
  type: z.literal('capture-health'),
  health: captureHealthSchema,
  /** Latest meeting facts (title, participants) so they reach the server even when nobody speaks. */
  meeting: ingestMeetingSchema.nullable(),
});
export type CaptureHealthMessage = z.infer<typeof captureHealthMessageSchema>;

/**
 * From the bridge: a handshake message the web page posted, with the page origin the bridge saw. The
 * worker trusts Chrome's record of the sender, not this field; a mismatch is refused.
 */
export const bridgeMessageSchema = z.object({
  type: z.literal('bridge-handshake'),
  origin: z.string(),
  request: handshakeRequestSchema,
});
export type BridgeMessage = z.infer<typeof bridgeMessageSchema>;

export const popupStateRequestSchema = z.object({ type: z.literal('popup-state'), tabId: z.number().nullable() });
export const setServerOriginMessageSchema = z.object({ type: z.literal('set-server-origin'), serverOrigin: z.string() });
export const flushNowMessageSchema = z.object({ type: z.literal('flush-now') });
/** The popup's Retry and Discard for set-aside batches. */
export const retrySetAsidesMessageSchema = z.object({ type: z.literal('retry-set-asides') });
export const discardSetAsidesMessageSchema = z.object({ type: z.literal('discard-set-asides') });

export const runtimeMessageSchema = z.discriminatedUnion('type', [
  captureLinesMessageSchema,
  captureEndMessageSchema,
  captureHealthMessageSchema,
  captureGapsMessageSchema,
  bridgeMessageSchema,
  popupStateRequestSchema,
  setServerOriginMessageSchema,
  flushNowMessageSchema,
  retrySetAsidesMessageSchema,
  discardSetAsidesMessageSchema,
]);
export type RuntimeMessage = z.infer<typeof runtimeMessageSchema>;

export const accountSchema = z.object({
  user: handshakeUserSchema,
  token: z.string().min(1),
  serverOrigin: z.string(),
  /** Origin of the web app page that signed the extension in. */
  webOrigin: z.string(),
  /** The server answered 401: the token is no longer valid; the outbox waits for a new sign-in. */
  rejected: z.boolean(),
});
export type Account = z.infer<typeof accountSchema>;

export interface PopupState {
  account: { user: Account['user']; rejected: boolean } | null;
  serverOrigin: string | null;
  /** The meeting captured in the asked-for tab, while its session is in the outbox. */
  meeting: {
    sessionId: string;
    meetCode: string;
    title: string | null;
    linesSent: number;
    pendingLines: number;
    /** Why the server takes no more of its lines (its size bound); null while it does. */
    full: string | null;
  } | null;
  pendingLines: number;
  pendingEvents: number;
  pendingEnds: number;
  /** Batches the server refused for good, kept until the user retries or discards them. */
  setAsides: { batches: number; lines: number; events: number; ends: number; lastReason: string | null };
  /** Lines kept unsent because the server takes no more lines of their meeting, and the server's reason. */
  held: { lines: number; reason: string | null };
  /** The last page that tried the handshake although it is not the server set (this browser session). */
  foreignOrigin: string | null;
  /** When the server last acknowledged a request; null before the first since the worker's data was created. */
  lastSentAt: number | null;
  /** Last send problem, e.g. "server unreachable, retrying at 10:42". */
  lastError: string | null;
  nextRetryAt: number | null;
  health: CaptureHealth | null;
}

export type BridgeReply = HandshakeReply;

export interface SetServerOriginReply {
  ok: boolean;
  serverOrigin?: string;
  error?: string;
}
