import { z } from 'zod';
import { meetingIdSchema } from './meeting.js';

/** Random bytes in a share link's token: 256 bits, far past guessing. */
export const SHARE_TOKEN_BYTES = 32;

/** A share token as links carry it: SHARE_TOKEN_BYTES in base64url, without padding (43 characters). */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Path of the read-only page a share link opens, on the web app's origin. */
export const SHARED_PAGE_PATH = '/shared';

export function shareUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}${SHARED_PAGE_PATH}/${token}`;
}

/** Why an encrypted meeting cannot be shared (412 of POST /v1/meeting/{id}/share, and the dialog). */
export const ENCRYPTED_SHARE_REFUSAL =
  "An encrypted meeting cannot be shared: its text is sealed with its owner's key, and a link would have to open it for anyone";

export const shareMeetingInputSchema = z.strictObject({ id: meetingIdSchema });

/** POST /v1/meeting/{id}/share: the new link. Only now is it known: the server keeps its hash. */
export const shareLinkSchema = z.object({ url: z.string() });
export type ShareLink = z.infer<typeof shareLinkSchema>;

/** GET /v1/meeting/{id}/share: whether a link is live, and since when (epoch ms). */
export const shareStatusSchema = z.object({
  shared: z.boolean(),
  sharedAt: z.number().nullable(),
});
export type ShareStatus = z.infer<typeof shareStatusSchema>;

/**
 * GET /v1/shared/{token}. Any string is taken: one of another shape is just a link that leads nowhere
 * (404), like an unknown one. The bound keeps the path sane.
 */
export const sharedMeetingInputSchema = z.strictObject({ token: z.string().max(200) });

/** A transcript line as a shared link shows it: who, when (epoch ms), what was said. */
export const sharedLineSchema = z.object({
  speaker: z.string(),
  text: z.string(),
  spokenAt: z.number(),
});
export type SharedLine = z.infer<typeof sharedLineSchema>;

/**
 * A summary as a shared link shows it: its title, the sanitised HTML the app shows, and when each line
 * it cites was spoken (epoch ms; `n` is the number of its `data-cite`), shown as times: the link opens no lines.
 */
export const sharedSummarySchema = z.object({
  title: z.string(),
  html: z.string(),
  citations: z.array(z.object({ n: z.number().int().positive(), spokenAt: z.number() })),
});
export type SharedSummary = z.infer<typeof sharedSummarySchema>;

/**
 * What anyone with a share link sees of a meeting, and nothing else: no ids, marks, comments,
 * cleaned-up texts, avatars or answers to the owner's own questions. Times are epoch ms.
 */
export const sharedMeetingSchema = z.object({
  title: z.string(),
  date: z.number(),
  finishedAt: z.number().nullable(),
  participants: z.array(z.string()),
  lines: z.array(sharedLineSchema),
  summaries: z.array(sharedSummarySchema),
});
export type SharedMeeting = z.infer<typeof sharedMeetingSchema>;
