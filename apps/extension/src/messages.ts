import { z } from 'zod';
import {
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

export const captureHealthMessageSchema = z.object({
  type: z.literal('capture-health'),
  health: captureHealthSchema,
  /** Latest meeting facts (title, participants) so they reach the server even when nobody speaks. */
  meeting: ingestMeetingSchema.nullable(),
});
export type CaptureHealthMessage = z.infer<typeof captureHealthMessageSchema>;

/** From the bridge: a handshake message the web page posted, with the page origin the bridge saw. */
export const bridgeMessageSchema = z.object({
  type: z.literal('bridge-handshake'),
  origin: z.string(),
  request: handshakeRequestSchema,
});
export type BridgeMessage = z.infer<typeof bridgeMessageSchema>;

export const popupStateRequestSchema = z.object({ type: z.literal('popup-state'), tabId: z.number().nullable() });
export const setServerOriginMessageSchema = z.object({ type: z.literal('set-server-origin'), serverOrigin: z.string() });
export const flushNowMessageSchema = z.object({ type: z.literal('flush-now') });

export const runtimeMessageSchema = z.discriminatedUnion('type', [
  captureLinesMessageSchema,
  captureEndMessageSchema,
  captureHealthMessageSchema,
  bridgeMessageSchema,
  popupStateRequestSchema,
  setServerOriginMessageSchema,
  flushNowMessageSchema,
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
  pendingLines: number;
  pendingEnds: number;
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
