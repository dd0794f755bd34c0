import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret: `whsec_` and 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The Mbox-Signature header of a delivery: `t=<unix seconds>,v1=<hex>` where the hex is
 * HMAC-SHA256(secret, "<t>.<raw body>"). The timestamp is signed too, so a captured delivery cannot be
 * replayed later with a new time (receivers refuse old ones; docs/webhooks.md).
 */
export function webhookSignatureHeader(secret: string, body: string, timestampSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${digest}`;
}
