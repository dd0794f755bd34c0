import { z } from 'zod';

/**
 * pending: waiting for its job; sending: being generated or sent (retrying after a temporary failure,
 * see `error`); sent; skipped: nothing to send under the user's settings; failed: refused for good.
 */
export const RECAP_STATUSES = ['pending', 'sending', 'sent', 'skipped', 'failed'] as const;
export const recapStatusSchema = z.enum(RECAP_STATUSES);
export type RecapStatus = z.infer<typeof recapStatusSchema>;

/** summary: the meeting's summary; no-summary: the short note of a meeting too small to summarise. */
export const recapKindSchema = z.enum(['summary', 'no-summary']);
export type RecapKind = z.infer<typeof recapKindSchema>;

/** Where recap e-mails go on this server: an SMTP server, or the outbox folder (no SMTP_URL). */
export const recapTransportSchema = z.enum(['smtp', 'outbox']);

/** One row of the Outbox view. Times are epoch milliseconds. */
export const recapSchema = z.object({
  id: z.string(),
  meetingId: z.string(),
  meetingTitle: z.string(),
  status: recapStatusSchema,
  kind: recapKindSchema,
  recipients: z.array(z.string()),
  subject: z.string(),
  /** Last error (a temporary one while retrying, the final one when failed); '' when none. */
  error: z.string(),
  /** Why nothing was sent, for skipped recaps; '' otherwise. */
  skippedReason: z.string(),
  /** Addresses of the settings it was not sent to, and why (not confirmed yet, daily limit); '' when none. */
  refused: z.string(),
  attempts: z.number().int(),
  createdAt: z.number(),
  sentAt: z.number().nullable(),
});
export type Recap = z.infer<typeof recapSchema>;

export const recapListInputSchema = z.strictObject({
  /** Rows before this recap id (the previous page's last `id`). */
  cursor: z.string().trim().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  /** Sent by tRPC's infinite queries; pages only go forward (older recaps). */
  direction: z.enum(['forward', 'backward']).optional(),
});

export const recapListSchema = z.object({
  recaps: z.array(recapSchema),
  nextCursor: z.string().nullable(),
  transport: recapTransportSchema,
});

export const recapIdInputSchema = z.strictObject({ recapId: z.string().trim().min(1).max(100) });

export const recapDetailSchema = recapSchema.extend({
  /** The e-mail's HTML as sent (sanitised summary inside a fixed template); show it sandboxed. */
  html: z.string(),
  text: z.string(),
  messageId: z.string(),
});
export type RecapDetail = z.infer<typeof recapDetailSchema>;

/** The signed token of an unsubscribe link. */
export const unsubscribeInputSchema = z.strictObject({ token: z.string().trim().min(10).max(2000) });

export const unsubscribeStateSchema = z.object({
  /** The address the link was sent for, partly masked. */
  email: z.string(),
  sendSummary: z.boolean(),
});
export type UnsubscribeState = z.infer<typeof unsubscribeStateSchema>;

/**
 * A recap address other than the account's own: recaps go to it only once its owner confirmed by the
 * link e-mailed to it (docs/recaps.md). declined: its owner said no (or stopped them later).
 */
export const RECIPIENT_STATUSES = ['pending', 'confirmed', 'declined'] as const;
export const recipientStatusSchema = z.enum(RECIPIENT_STATUSES);
export type RecipientStatus = z.infer<typeof recipientStatusSchema>;

export const recapRecipientSchema = z.object({
  email: z.string(),
  status: recipientStatusSchema,
  /** When the confirmation e-mail went out (epoch ms); null while it has not. */
  confirmationSentAt: z.number().nullable(),
  /** Why the confirmation e-mail has not gone out, when it has not; '' otherwise. */
  error: z.string(),
});
export type RecapRecipient = z.infer<typeof recapRecipientSchema>;

export const recapRecipientListSchema = z.object({
  recipients: z.array(recapRecipientSchema),
  /** Most addresses the settings may name (RECAP_RECIPIENTS_MAX). */
  maxRecipients: z.number().int(),
  /** Most e-mails the account's recaps and confirmations may send per UTC day; 0 = unlimited (RECAP_EMAILS_PER_DAY). */
  emailsPerDay: z.number().int(),
});
export type RecapRecipientList = z.infer<typeof recapRecipientListSchema>;

/** The signed token of a confirmation link. */
export const recipientTokenInputSchema = z.strictObject({ token: z.string().trim().min(10).max(500) });

/** What a confirmation link's page shows a recipient (who may not have an account). */
export const recipientConsentSchema = z.object({
  /** The address the recaps would go to. */
  email: z.string(),
  /** The account that asked to send them. */
  ownerEmail: z.string(),
  status: recipientStatusSchema,
  /** The link is too old to confirm with (declining still works). */
  expired: z.boolean(),
});
export type RecipientConsent = z.infer<typeof recipientConsentSchema>;
/** The recap e-mail's HTML as a page of its own (the Outbox preview frame), with the e-mail's own styles allowed. */
export function recapEmailPath(recapId: string): string {
  return `/v1/recaps/${encodeURIComponent(recapId)}/email.html`;
}
