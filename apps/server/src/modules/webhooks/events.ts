import type { WebhookEvent, WebhookEventData, Webhook } from '@mbox/shared/webhooks';
import type { AppDeps } from '../../deps.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { findWebhook, recordDeliveries, webhookPayload } from './service.js';

/** Queues one job per delivery, inside the transaction that recorded them. */
async function queueDeliveries(deps: AppDeps, tx: Prisma.TransactionClient, deliveryIds: string[]): Promise<void> {
  for (const deliveryId of deliveryIds) await deps.jobs.send('webhook-deliver', { deliveryId }, { tx });
}

/**
 * Records one delivery per webhook of `userId` subscribed to `event` and enqueues a job for each
 * (durable: inside `tx`, the deliveries and their jobs commit with the caller's change, or not at all).
 * Answers the number of deliveries.
 */
export async function enqueueWebhookEvent<E extends WebhookEvent>(
  deps: AppDeps,
  userId: string,
  event: E,
  data: WebhookEventData[E],
  options: { tx?: Prisma.TransactionClient } = {},
): Promise<number> {
  const hooks = await (options.tx ?? deps.db).webhook.findMany({ where: { userId, events: { has: event } }, select: { id: true } });
  if (hooks.length === 0) return 0;
  const payload = webhookPayload(event, data);
  const record = async (tx: Prisma.TransactionClient) => queueDeliveries(deps, tx, await recordDeliveries(tx, hooks.map((h) => h.id), payload));
  if (options.tx) await record(options.tx);
  else await deps.db.$transaction(record);
  return hooks.length;
}

/** Sends a `ping` event to one of the user's webhooks (through the queue, like any delivery). */
export async function sendTestEvent(deps: AppDeps, userId: string, id: string): Promise<Webhook> {
  return deps.db.$transaction(async (tx) => {
    await findWebhook(deps, tx, userId, id);
    const payload = webhookPayload('ping', { message: 'A test delivery from Mbox: your receiver is set up.' });
    await queueDeliveries(deps, tx, await recordDeliveries(tx, [id], payload));
    return findWebhook(deps, tx, userId, id);
  });
}
