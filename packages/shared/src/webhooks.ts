import { z } from 'zod';

/** Events a user can subscribe a webhook to (docs/webhooks.md). */
export const WEBHOOK_EVENTS = ['meeting.finished', 'summary.created', 'action_item.created', 'action_item.updated'] as const;
export const webhookEventSchema = z.enum(WEBHOOK_EVENTS, {
  error: () => `Unknown event: expected one of ${WEBHOOK_EVENTS.join(', ')}`,
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'meeting.finished': 'Meeting finished',
  'summary.created': 'Summary created',
  'action_item.created': 'Action item created',
  'action_item.updated': 'Action item updated',
};

/** Webhooks one user may register. */
export const WEBHOOKS_PER_USER = 10;
export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** Header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Mbox-Signature';
/** Receivers should refuse signatures older than this (replays). */
export const WEBHOOK_SIGNATURE_TOLERANCE_SECONDS = 300;

export type WebhookUrlCheck = { valid: true; url: string } | { valid: false; error: string };

/**
 * What a receiver URL must be, as written: an absolute http(s) URL without credentials. Whether its
 * address is public is checked by the server (it depends on its allow-list, and again at delivery).
 */
export function checkWebhookUrl(input: string): WebhookUrlCheck {
  const text = input.trim();
  if (!text) return { valid: false, error: 'Enter the URL of your receiver' };
  if (text.length > WEBHOOK_URL_MAX_LENGTH) return { valid: false, error: `URL is too long (at most ${WEBHOOK_URL_MAX_LENGTH} characters)` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { valid: false, error: 'Not a valid URL: expected https://host/path' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { valid: false, error: 'URL must start with https:// or http://' };
  }
  if (!url.hostname) return { valid: false, error: 'URL has no host name' };
  if (url.username || url.password) {
    return { valid: false, error: 'URL must not contain a user name or password: the signature authenticates deliveries' };
  }
  return { valid: true, url: url.href };
}

export const webhookUrlSchema = z.string().transform((text, ctx) => {
  const result = checkWebhookUrl(text);
  if (result.valid) return result.url;
  ctx.addIssue({ code: 'custom', message: result.error });
  return z.NEVER;
});

/** webhooks.create / POST /v1/webhooks */
export const createWebhookInputSchema = z.strictObject({
  url: webhookUrlSchema,
  events: z
    .array(webhookEventSchema)
    .min(1, { message: 'Choose at least one event' })
    .max(10, { message: 'Too many events' })
    .transform((events) => WEBHOOK_EVENTS.filter((event) => events.includes(event))),
});
export type CreateWebhookInput = z.input<typeof createWebhookInputSchema>;

export const webhookIdInputSchema = z.strictObject({ id: z.string().min(1).max(64) });

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One delivery of one event to one webhook, as its owner sees it. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  event: z.union([webhookEventSchema, z.literal('ping')]),
  /** pending: waiting for its first attempt or a retry; failed: retries exhausted or refused for good. */
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** HTTP status of the last attempt; null when no answer came. */
  responseStatus: z.number().int().nullable(),
  /** Why the last attempt failed; empty after a success. */
  error: z.string(),
  /** Epoch ms. */
  createdAt: z.number(),
  deliveredAt: z.number().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventSchema),
  /** Signing secret (`whsec_…`); only its owner ever receives it. */
  secret: z.string(),
  /** Epoch ms. */
  createdAt: z.number(),
  /** The latest deliveries, newest first. */
  deliveries: z.array(webhookDeliverySchema),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) });

/** Body of every delivery (docs/webhooks.md). `id` is the event's: the same for every webhook and retry. */
export interface WebhookPayload<E extends WebhookEvent | 'ping' = WebhookEvent | 'ping'> {
  id: string;
  event: E;
  /** ISO 8601. */
  createdAt: string;
  data: WebhookEventData[E];
}

export interface WebhookMeetingRef {
  id: string;
  title: string;
  /** The meeting in the web app. */
  url: string;
}

export interface WebhookEventData {
  'meeting.finished': {
    meeting: WebhookMeetingRef & { startedAt: string; endedAt: string; participants: string[] };
  };
  'summary.created': {
    meeting: WebhookMeetingRef;
    summary: {
      id: string;
      promptKey: string;
      title: string;
      /** HTML; null when the meeting is end-to-end encrypted (its text never leaves the server). */
      text: string | null;
      encrypted: boolean;
    };
  };
  'action_item.created': { meeting: WebhookMeetingRef; actionItem: WebhookActionItem };
  'action_item.updated': {
    meeting: WebhookMeetingRef;
    actionItem: WebhookActionItem;
    /** The fields that changed. */
    changed: ('text' | 'owner' | 'due' | 'status')[];
    /** Who changed it: its owner (the web app, REST, MCP), or a re-extraction when the meeting ended again. */
    by: 'user' | 'extraction';
  };
  ping: { message: string };
}

/** An action item as webhooks carry it (docs/webhooks.md). */
export interface WebhookActionItem {
  id: string;
  text: string;
  owner: string;
  /** YYYY-MM-DD or null. */
  due: string | null;
  status: 'open' | 'done';
  /** The transcript line it was read from, and its address in the web app; null when none was cited. */
  source: { messageId: string; speaker: string; spokenAt: string; url: string } | null;
}
