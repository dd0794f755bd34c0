import { randomUUID } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import { UNTITLED_MEETING } from '@mbox/shared';
import {
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOKS_PER_USER,
  type CreateWebhookInput,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookPayload,
} from '@mbox/shared/webhooks';
import { AppError, invalidField } from '../../app-error.js';
import { isEncryptedText, openWebhookSecret, sealWebhookSecret } from '../../crypto/encryption.js';
import type { AppDeps } from '../../deps.js';
import type { Prisma, Webhook as WebhookRow, WebhookDelivery as DeliveryRow } from '../../generated/prisma/client.js';
import {
  OutboundRefusedError,
  checkOutboundUrl,
  isPublicAddress,
  isRefusedAddressError,
  outboundRequest,
  type OutboundRefusal,
} from '../../net/outbound.js';
import { newWebhookSecret, webhookSignatureHeader } from './signing.js';

/** Deliveries shown per webhook. */
const RECENT_DELIVERIES = 10;
/** One attempt's deadline: connect, send, and the receiver's answer. */
const DELIVERY_TIMEOUT_MS = 10_000;
const USER_AGENT = 'Mbox-Webhooks/1.0 (+https://github.com/mbox-app)';
/** Stored error texts are bounded. */
const ERROR_MAX_CHARS = 300;

type DeliveryEvent = WebhookEvent | 'ping';

const REFUSALS: Record<OutboundRefusal, string> = {
  scheme: 'Webhook URL must start with https:// or http://',
  credentials: 'Webhook URL must not contain a user name or password',
  port: 'Webhook URL refused: only ports 80 and 443 are allowed (an administrator can allow an intranet receiver in WEBHOOK_ALLOWED_HOSTS)',
  address: 'Webhook URL refused: it points to a private, local or reserved network address',
};

/** A 400 naming the url field, answered like a schema failure. */
function urlError(message: string): AppError {
  return invalidField('url', message);
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', 'Webhook not found');
}

function toDeliveryDto(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event: row.event as DeliveryEvent,
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    error: row.error,
    createdAt: row.createdAt.getTime(),
    deliveredAt: row.deliveredAt?.getTime() ?? null,
  };
}

function toWebhookDto(masterKey: Buffer, row: WebhookRow & { deliveries: DeliveryRow[] }): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEvent[],
    secret: openWebhookSecret(masterKey, row.userId, row.secret),
    createdAt: row.createdAt.getTime(),
    deliveries: row.deliveries.map(toDeliveryDto),
  };
}

const withRecentDeliveries = {
  deliveries: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: RECENT_DELIVERIES },
} as const satisfies Prisma.WebhookInclude;

export async function listWebhooks(deps: AppDeps, userId: string): Promise<Webhook[]> {
  const rows = await deps.db.webhook.findMany({
    where: { userId },
    include: withRecentDeliveries,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map((row) => toWebhookDto(deps.secrets.masterKey, row));
}

/**
 * Refuses a receiver the deliveries could not reach (or must not): the checks of the link summarizer,
 * and a host name that resolves to a non-public address. A name that does not resolve yet is accepted;
 * every delivery checks the address again when it connects.
 */
async function assertReachable(deps: AppDeps, url: string): Promise<void> {
  const parsed = new URL(url);
  let exempt: boolean;
  try {
    exempt = checkOutboundUrl(parsed, deps.config.WEBHOOK_ALLOWED_HOSTS);
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw urlError(REFUSALS[error.reason]);
    throw error;
  }
  if (exempt) return;
  const addresses = await dnsLookup(parsed.hostname.replace(/^\[(.*)\]$/, '$1'), { all: true }).catch(() => []);
  if (addresses.some((a) => !isPublicAddress(a.address))) throw urlError(REFUSALS.address);
}

export async function createWebhook(
  deps: AppDeps,
  userId: string,
  input: { url: string; events: CreateWebhookInput['events'] },
): Promise<Webhook> {
  await assertReachable(deps, input.url);
  return deps.db.$transaction(async (tx) => {
    // Serialises a user's registrations so the limit holds under concurrent calls.
    await tx.$queryRaw`SELECT 1 FROM "User" WHERE id = ${userId} FOR UPDATE`;
    const count = await tx.webhook.count({ where: { userId } });
    if (count >= WEBHOOKS_PER_USER) {
      throw new AppError('FORBIDDEN', `At most ${WEBHOOKS_PER_USER} webhooks: delete one first`);
    }
    const row = await tx.webhook.create({
      data: { userId, url: input.url, events: input.events, secret: sealWebhookSecret(deps.secrets.masterKey, userId, newWebhookSecret()) },
      include: withRecentDeliveries,
    });
    return toWebhookDto(deps.secrets.masterKey, row);
  });
}

export async function deleteWebhook(deps: AppDeps, userId: string, id: string): Promise<{ id: string }> {
  // Its deliveries go with it (cascade); a queued job then finds nothing to send.
  const { count } = await deps.db.webhook.deleteMany({ where: { id, userId } });
  if (count === 0) throw notFound();
  return { id };
}

function webOrigin(deps: AppDeps): string {
  return deps.config.PUBLIC_URL ?? `http://localhost:${deps.config.PORT}`;
}

/** How a meeting is named in payloads: id, title, and its page in the web app. */
export function webhookMeetingRef(deps: AppDeps, meeting: { id: string; title: string }) {
  return { id: meeting.id, title: meeting.title || UNTITLED_MEETING, url: `${webOrigin(deps)}/${meeting.id}` };
}

/** The deliveries of one event to the given webhooks, pending; answers their ids (one job each). */
export async function recordDeliveries(
  tx: Prisma.TransactionClient,
  webhookIds: string[],
  payload: WebhookPayload,
): Promise<string[]> {
  const ids: string[] = [];
  for (const webhookId of webhookIds) {
    const delivery = await tx.webhookDelivery.create({
      data: { webhookId, event: payload.event, payload: payload as unknown as Prisma.InputJsonValue },
      select: { id: true },
    });
    ids.push(delivery.id);
  }
  return ids;
}

/** A new event's envelope (docs/webhooks.md): its id is shared by every webhook and retry. */
export function webhookPayload<E extends WebhookEvent | 'ping'>(event: E, data: WebhookEventData[E]): WebhookPayload<E> {
  return { id: `evt_${randomUUID()}`, event, createdAt: new Date().toISOString(), data };
}

export async function findWebhook(deps: AppDeps, db: AppDeps['db'] | Prisma.TransactionClient, userId: string, id: string) {
  const hook = await db.webhook.findFirst({ where: { id, userId }, include: withRecentDeliveries });
  if (!hook) throw notFound();
  return toWebhookDto(deps.secrets.masterKey, hook);
}

function truncate(text: string): string {
  return text.length > ERROR_MAX_CHARS ? `${text.slice(0, ERROR_MAX_CHARS - 1)}…` : text;
}

type AttemptResult = { ok: true; status: number } | { ok: false; status: number | null; error: string; permanent: boolean };

async function attempt(deps: AppDeps, hook: { url: string; secret: string }, delivery: DeliveryRow): Promise<AttemptResult> {
  let url: URL;
  let exempt: boolean;
  try {
    url = new URL(hook.url);
    exempt = checkOutboundUrl(url, deps.config.WEBHOOK_ALLOWED_HOSTS);
  } catch (error) {
    const reason = error instanceof OutboundRefusedError ? REFUSALS[error.reason] : 'Webhook URL is not valid';
    return { ok: false, status: null, error: reason, permanent: true };
  }
  // The exact bytes signed are the bytes sent: receivers verify the raw body.
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(Date.now() / 1000);
  const timeout = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
  try {
    const response = await outboundRequest(url, {
      method: 'POST',
      exempt,
      signal: AbortSignal.any([timeout, deps.shutdown]),
      body,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': USER_AGENT,
        [WEBHOOK_SIGNATURE_HEADER]: webhookSignatureHeader(hook.secret, body, timestamp),
        'Mbox-Event': delivery.event,
        'Mbox-Delivery': delivery.id,
      },
    });
    // The answer's body is not used; drain it so the connection is released.
    response.resume();
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return { ok: true, status };
    return { ok: false, status, error: `The receiver answered HTTP ${status}`, permanent: false };
  } catch (error) {
    if (isRefusedAddressError(error)) return { ok: false, status: null, error: REFUSALS.address, permanent: true };
    const message = timeout.aborted
      ? `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
      : `The receiver could not be reached: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, status: null, error: truncate(message), permanent: false };
  }
}

/** Raised so the queue retries the job with backoff. */
export class DeliveryFailedError extends Error {
  override name = 'DeliveryFailedError';
}

/**
 * One attempt at a delivery (the webhook-deliver job). Success or a final failure is recorded and the
 * job ends; a failure that may pass is recorded and thrown, and the queue retries with backoff.
 * A delivery already delivered or failed, or whose webhook was deleted, is left alone.
 */
export async function deliverWebhook(deps: AppDeps, deliveryId: string, options: { lastAttempt: boolean }): Promise<void> {
  const delivery = await deps.db.webhookDelivery.findUnique({
    where: { id: deliveryId },
    include: { webhook: { select: { url: true, secret: true, userId: true } } },
  });
  if (!delivery || delivery.status !== 'pending') return;
  const { url, secret, userId } = delivery.webhook;
  const result = await attempt(deps, { url, secret: openWebhookSecret(deps.secrets.masterKey, userId, secret) }, delivery);
  const final = result.ok || result.permanent || options.lastAttempt;
  await deps.db.webhookDelivery.updateMany({
    where: { id: deliveryId, status: 'pending' },
    data: {
      attempts: { increment: 1 },
      responseStatus: result.status,
      error: result.ok ? '' : result.error,
      status: result.ok ? 'delivered' : final ? 'failed' : 'pending',
      ...(result.ok ? { deliveredAt: new Date() } : {}),
    },
  });
  if (!final) throw new DeliveryFailedError(result.ok ? '' : result.error);
}

/**
 * Seals the signing secrets stored in clear before secrets were encrypted at rest (run at start-up;
 * reads take either form, so a row this has not reached yet still signs). Each row is rewritten only
 * while it still holds the clear value.
 */
export async function sealClearWebhookSecrets(deps: AppDeps): Promise<number> {
  const rows = await deps.db.webhook.findMany({ where: { NOT: { secret: { startsWith: 'enc1:' } } }, select: { id: true, userId: true, secret: true } });
  let sealed = 0;
  for (const row of rows) {
    if (isEncryptedText(row.secret)) continue;
    const { count } = await deps.db.webhook.updateMany({
      where: { id: row.id, secret: row.secret },
      data: { secret: sealWebhookSecret(deps.secrets.masterKey, row.userId, row.secret) },
    });
    sealed += count;
  }
  if (sealed) deps.log.info({ sealed }, 'webhook secrets sealed with the master key');
  return sealed;
}
