/**
 * A Stripe-compatible HTTP server for tests: the part of Stripe's API the billing module calls, spoken
 * the way the official SDK speaks it (form-encoded requests with bracketed keys, JSON answers, Stripe's
 * error shape, Bearer secret key, Idempotency-Key), with state kept in memory, plus hosted pages and
 * signed webhook events sent to the app.
 *
 * Start it, point the app at it, tell it where the app's webhook is:
 *
 *   const stripe = await startStripeServer();
 *   const app = await startTestApp({ ...stripe.appConfig() });
 *   stripe.setWebhookUrl(`${app.url}/v1/stripe/webhook`);
 *
 * API endpoints: POST /v1/customers, POST /v1/checkout/sessions, GET /v1/checkout/sessions/:id,
 * GET|POST /v1/subscriptions/:id (retrieve; update cancel_at_period_end), DELETE /v1/subscriptions/:id,
 * POST /v1/billing_portal/sessions.
 *
 * Hosted pages (for Chromium tests): GET /checkout/:id shows the plan with a 'Pay' button (completes the
 * checkout like a paid card: subscription created, checkout.session.completed, customer.subscription.created
 * and invoice.paid delivered, then a redirect to success_url) and a 'Cancel' link (to cancel_url);
 * GET /portal/:id shows the customer's subscriptions with a 'Return' link.
 *
 * Test controls: completeCheckout, endPeriod (renews, or ends a subscription set to cancel),
 * failRenewal, deleteSubscription, event/deliver (any event, any created time, any or no signature),
 * settled (waits for the webhook deliveries the API calls started), advance and resetClock (the
 * clock of events and periods; endPeriod moves it to the period's end).
 * Subscriptions use API 2025+ shapes (current_period_end on items); `legacyPeriodEnd` also sets the
 * pre-2025 subscription-level field.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

const DAY = 24 * 60 * 60;
const PERIOD = 30 * DAY;

export interface StripeServerOptions {
  secretKey?: string;
  webhookSecret?: string;
  /** Price id → monthly amount in cents. */
  prices?: Record<string, number>;
  /** Also put current_period_end on the subscription itself, as API versions before 2025-03-31 did. */
  legacyPeriodEnd?: boolean;
}

type Json = Record<string, unknown>;
type FormValue = string | FormObject | FormValue[];
interface FormObject {
  [key: string]: FormValue;
}

export interface StripeSubscription extends Json {
  id: string;
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  metadata: Record<string, string>;
  items: { object: 'list'; data: Json[] };
}

export interface StripeEventObject extends Json {
  id: string;
  type: string;
  created: number;
  data: { object: Json };
}

export interface RecordedRequest {
  method: string;
  path: string;
  form: FormObject;
  idempotencyKey: string | undefined;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: Json = {},
  ) {
    super(message);
  }
}

/** Stripe's form encoding (`a[b][0][c]=x`) back into objects, and objects keyed 0, 1, … into arrays. */
export function parseStripeForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = [...key.matchAll(/[^[\]]+/g)].map((m) => m[0]);
    let node = root;
    path.forEach((segment, i) => {
      if (i === path.length - 1) node[segment] = value;
      else node = (node[segment] ??= {}) as FormObject;
    });
  }
  return arrays(root) as FormObject;
}

function arrays(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((k) => [k, arrays(value[k]!)]));
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => converted[k]!);
  }
  return converted;
}

const str = (form: FormObject, key: string): string | undefined => {
  const value = form[key];
  return typeof value === 'string' ? value : undefined;
};
const record = (value: FormValue | undefined): Record<string, string> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startStripeServer(options: StripeServerOptions = {}) {
  const secretKey = options.secretKey ?? 'sk_test_mbox';
  const webhookSecret = options.webhookSecret ?? 'whsec_mbox_test';
  const prices = options.prices ?? { price_pro: 799, price_summarizer: 399 };
  let webhookUrl: string | null = null;
  let clockOffset = 0;
  const now = () => Math.floor(Date.now() / 1000) + clockOffset;

  const customers = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, StripeSubscription>();
  const portalSessions = new Map<string, Json>();
  const idempotent = new Map<string, { status: number; body: Json }>();
  const requests: RecordedRequest[] = [];
  const deliveries: { event: StripeEventObject; status: number }[] = [];
  const pending = new Set<Promise<unknown>>();

  function price(id: string): Json {
    const amount = prices[id];
    if (amount === undefined) throw new StripeApiError(400, `No such price: '${id}'`, { code: 'resource_missing', param: 'line_items[0][price]' });
    return { id, object: 'price', unit_amount: amount, currency: 'usd', recurring: { interval: 'month', interval_count: 1 } };
  }

  function customer(id: string | undefined, param: string): Json {
    const found = id ? customers.get(id) : undefined;
    if (!found) throw new StripeApiError(400, `No such customer: '${id ?? ''}'`, { code: 'resource_missing', param });
    return found;
  }

  function subscription(id: string): StripeSubscription {
    const found = subscriptions.get(id);
    if (!found) throw new StripeApiError(404, `No such subscription: '${id}'`, { code: 'resource_missing', param: 'id' });
    return found;
  }

  function setPeriod(sub: StripeSubscription, start: number) {
    for (const item of sub.items.data) {
      item.current_period_start = start;
      item.current_period_end = start + PERIOD;
    }
    if (options.legacyPeriodEnd) {
      sub.current_period_start = start;
      sub.current_period_end = start + PERIOD;
    }
  }

  const periodEnd = (sub: StripeSubscription) => sub.items.data[0]!.current_period_end as number;
  const snapshot = <T>(value: T): T => structuredClone(value);

  function event(type: string, object: Json, overrides: { id?: string; created?: number } = {}): StripeEventObject {
    return {
      id: overrides.id ?? newId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: overrides.created ?? now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: snapshot(object) },
    };
  }

  /**
   * Sends one event to the app's webhook, signed with the webhook secret unless `signature` says
   * otherwise (a string: sent as is; null: no header). Answers the app's status and body.
   */
  async function deliver(
    evt: StripeEventObject,
    delivery: { signature?: string | null; secret?: string } = {},
  ): Promise<{ status: number; body: unknown }> {
    if (!webhookUrl) throw new Error('stripe-server: setWebhookUrl first');
    const payload = JSON.stringify(evt);
    const signature =
      delivery.signature === undefined
        ? Stripe.webhooks.generateTestHeaderString({ payload, secret: delivery.secret ?? webhookSecret })
        : delivery.signature;
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...(signature === null ? {} : { 'stripe-signature': signature }) },
      body: payload,
    });
    const text = await response.text();
    deliveries.push({ event: evt, status: response.status });
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  /** Events Stripe would send after an API call: delivered in order, in the background (see settled). */
  function emit(...events: StripeEventObject[]) {
    if (!webhookUrl) return;
    const run = (async () => {
      for (const evt of events) await deliver(evt);
    })();
    pending.add(run);
    void run.finally(() => pending.delete(run)).catch(() => undefined);
  }

  function invoice(sub: StripeSubscription, status: 'paid' | 'open'): Json {
    return {
      id: newId('in'),
      object: 'invoice',
      customer: sub.customer,
      status,
      amount_due: (sub.items.data[0]!.price as Json).unit_amount,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
    };
  }

  /** The customer pays on the checkout page: the subscription starts and Stripe's events go out. */
  async function completeCheckout(sessionId: string): Promise<StripeSubscription> {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`stripe-server: no checkout session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`stripe-server: checkout session ${sessionId} is ${String(session.status)}`);
    const start = now();
    const sub: StripeSubscription = {
      id: newId('sub'),
      object: 'subscription',
      customer: session.customer as string,
      status: 'active',
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      created: start,
      metadata: { ...(session.subscription_metadata as Record<string, string>) },
      items: {
        object: 'list',
        data: (session.prices as string[]).map((priceId) => ({ id: newId('si'), object: 'subscription_item', price: price(priceId), quantity: 1 })),
      },
    };
    setPeriod(sub, start);
    subscriptions.set(sub.id, sub);
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: sub.id });
    const { prices: _prices, subscription_metadata: _metadata, ...publicSession } = session;
    for (const evt of [
      event('customer.subscription.created', sub),
      event('invoice.paid', invoice(sub, 'paid')),
      event('checkout.session.completed', publicSession),
    ]) {
      await deliver(evt);
    }
    return snapshot(sub);
  }

  /**
   * The current period ends: a subscription set to cancel ends (customer.subscription.deleted), any
   * other renews for another period (invoice.paid, customer.subscription.updated). Moves the clock there.
   */
  async function endPeriod(subscriptionId: string): Promise<StripeSubscription> {
    const sub = subscription(subscriptionId);
    clockOffset += Math.max(0, periodEnd(sub) - now());
    if (sub.cancel_at_period_end) return deleteSubscription(subscriptionId);
    setPeriod(sub, periodEnd(sub));
    sub.status = 'active';
    await deliver(event('invoice.paid', invoice(sub, 'paid')));
    await deliver(event('customer.subscription.updated', sub));
    return snapshot(sub);
  }

  /** The renewal's card is declined: a new period starts unpaid, the subscription is past_due. */
  async function failRenewal(subscriptionId: string): Promise<StripeSubscription> {
    const sub = subscription(subscriptionId);
    clockOffset += Math.max(0, periodEnd(sub) - now());
    setPeriod(sub, periodEnd(sub));
    sub.status = 'past_due';
    await deliver(event('invoice.payment_failed', invoice(sub, 'open')));
    await deliver(event('customer.subscription.updated', sub));
    return snapshot(sub);
  }

  /** Ends the subscription now (customer.subscription.deleted). */
  async function deleteSubscription(subscriptionId: string): Promise<StripeSubscription> {
    const sub = subscription(subscriptionId);
    Object.assign(sub, { status: 'canceled', canceled_at: sub.canceled_at ?? now(), ended_at: now() });
    await deliver(event('customer.subscription.deleted', sub));
    return snapshot(sub);
  }

  function createCheckoutSession(form: FormObject): Json {
    if (str(form, 'mode') !== 'subscription') throw new StripeApiError(400, 'This server only knows mode=subscription', { param: 'mode' });
    const customerId = str(form, 'customer');
    customer(customerId, 'customer');
    const lineItems = Array.isArray(form.line_items) ? form.line_items : [];
    if (lineItems.length === 0) throw new StripeApiError(400, 'Missing required param: line_items.', { param: 'line_items' });
    const priceIds = lineItems.map((item, i) => {
      const priceId = typeof item === 'object' && !Array.isArray(item) ? str(item, 'price') : undefined;
      if (!priceId) throw new StripeApiError(400, `Missing required param: line_items[${i}][price].`, { param: `line_items[${i}][price]` });
      price(priceId);
      return priceId;
    });
    for (const param of ['success_url', 'cancel_url']) {
      if (!str(form, param)) throw new StripeApiError(400, `Missing required param: ${param}.`, { param });
    }
    const id = newId('cs_test');
    const session: Json = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: customerId,
      client_reference_id: str(form, 'client_reference_id') ?? null,
      metadata: record(form.metadata),
      success_url: str(form, 'success_url'),
      cancel_url: str(form, 'cancel_url'),
      subscription: null,
      url: `${url}/checkout/${id}`,
      // Kept for completing the checkout; not part of Stripe's answer.
      prices: priceIds,
      subscription_metadata: record(typeof form.subscription_data === 'object' && !Array.isArray(form.subscription_data) ? form.subscription_data.metadata : undefined),
    };
    sessions.set(id, session);
    return publicSessionOf(session);
  }

  const publicSessionOf = (session: Json): Json => {
    const { prices: _prices, subscription_metadata: _metadata, ...rest } = session;
    return snapshot(rest);
  };

  async function api(method: string, path: string, form: FormObject): Promise<Json> {
    let match: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const id = newId('cus');
      const created: Json = { id, object: 'customer', email: str(form, 'email') ?? null, name: str(form, 'name') ?? null, metadata: record(form.metadata) };
      customers.set(id, created);
      return snapshot(created);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') return createCheckoutSession(form);
    if (method === 'GET' && (match = path.match(/^\/v1\/checkout\/sessions\/([\w-]+)$/))) {
      const session = sessions.get(match[1]!);
      if (!session) throw new StripeApiError(404, `No such checkout.session: '${match[1]}'`, { code: 'resource_missing' });
      return publicSessionOf(session);
    }
    if ((match = path.match(/^\/v1\/subscriptions\/([\w-]+)$/))) {
      const sub = subscription(match[1]!);
      if (method === 'GET') return snapshot(sub);
      if (method === 'POST') {
        const cancel = str(form, 'cancel_at_period_end');
        if (cancel !== undefined) {
          if (sub.status === 'canceled') throw new StripeApiError(400, 'A canceled subscription can only update its cancellation_details and metadata.');
          sub.cancel_at_period_end = cancel === 'true';
          sub.canceled_at = sub.cancel_at_period_end ? now() : null;
        }
        Object.assign(sub.metadata, record(form.metadata));
        emit(event('customer.subscription.updated', sub));
        return snapshot(sub);
      }
      if (method === 'DELETE') {
        Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
        emit(event('customer.subscription.deleted', sub));
        return snapshot(sub);
      }
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customerId = str(form, 'customer');
      customer(customerId, 'customer');
      const id = newId('bps');
      const session: Json = { id, object: 'billing_portal.session', customer: customerId, return_url: str(form, 'return_url') ?? null, url: `${url}/portal/${id}` };
      portalSessions.set(id, session);
      return snapshot(session);
    }
    throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  function page(response: ServerResponse, title: string, body: string) {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>` +
        `<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem">${body}</body></html>`,
    );
  }

  async function hosted(method: string, path: string, response: ServerResponse): Promise<boolean> {
    let match: RegExpMatchArray | null;
    if ((match = path.match(/^\/checkout\/([\w-]+)(\/pay)?$/))) {
      const session = sessions.get(match[1]!);
      if (!session) return false;
      if (method === 'POST' && match[2]) {
        if (session.status === 'open') await completeCheckout(session.id as string);
        response.writeHead(303, { location: (session.success_url as string).replace('{CHECKOUT_SESSION_ID}', session.id as string) });
        response.end();
        return true;
      }
      const lines = (session.prices as string[]).map((id) => `<li>${escapeHtml(id)}: $${((prices[id] ?? 0) / 100).toFixed(2)} per month</li>`);
      page(
        response,
        'Test checkout',
        `<h1>Test checkout</h1><ul>${lines.join('')}</ul>` +
          (session.status === 'open'
            ? `<form method="post" action="/checkout/${escapeHtml(session.id as string)}/pay"><button type="submit">Pay</button></form>` +
              `<p><a href="${escapeHtml(session.cancel_url as string)}">Cancel</a></p>`
            : `<p>This checkout is ${escapeHtml(String(session.status))}.</p>`),
      );
      return true;
    }
    if ((match = path.match(/^\/portal\/([\w-]+)$/)) && method === 'GET') {
      const session = portalSessions.get(match[1]!);
      if (!session) return false;
      const owned = [...subscriptions.values()].filter((sub) => sub.customer === session.customer);
      const rows = owned.map(
        (sub) =>
          `<li>${escapeHtml(sub.id)}: ${escapeHtml(sub.status)}${sub.cancel_at_period_end ? ' (cancels at period end)' : ''}, ` +
          `renews ${new Date(periodEnd(sub) * 1000).toISOString().slice(0, 10)}</li>`,
      );
      page(
        response,
        'Test billing portal',
        `<h1>Test billing portal</h1><ul>${rows.join('') || '<li>No subscriptions</li>'}</ul>` +
          (session.return_url ? `<p><a href="${escapeHtml(session.return_url as string)}">Return</a></p>` : ''),
      );
      return true;
    }
    return false;
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const method = request.method ?? 'GET';
    const { pathname, search } = new URL(request.url ?? '/', 'http://stripe.test');
    if (!pathname.startsWith('/v1/')) {
      if (!(await hosted(method, pathname, response))) {
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('Not found');
      }
      return;
    }
    const send = (status: number, body: Json) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    const form = parseStripeForm(method === 'GET' ? search.slice(1) : Buffer.concat(chunks).toString('utf8'));
    const idempotencyKey = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : undefined;
    requests.push({ method, path: pathname, form, idempotencyKey });
    const replay = idempotencyKey ? idempotent.get(`${method} ${pathname} ${idempotencyKey}`) : undefined;
    if (replay) return send(replay.status, replay.body);
    let status = 200;
    let body: Json;
    try {
      body = await api(method, pathname, form);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      body = { error: { type: 'invalid_request_error', message: error.message, ...error.details } };
    }
    // Stripe keeps the answer of a write under its key; the SDK sends one on every POST (retries).
    if (idempotencyKey && method === 'POST') idempotent.set(`${method} ${pathname} ${idempotencyKey}`, { status, body });
    send(status, body);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    /** STRIPE_API_BASE for the app. */
    url,
    secretKey,
    webhookSecret,
    /** The app's configuration for this server (price ids of the default catalogue). */
    appConfig: () => ({
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: url,
      STRIPE_PRICE_PRO: 'price_pro',
      STRIPE_PRICE_SUMMARIZER: 'price_summarizer',
    }),
    setWebhookUrl(target: string) {
      webhookUrl = target;
    },
    customers,
    sessions: { get: (id: string) => (sessions.has(id) ? publicSessionOf(sessions.get(id)!) : undefined), all: () => [...sessions.values()].map(publicSessionOf) },
    subscriptions,
    /** Every API request, parsed. */
    requests,
    /** Every webhook delivery with the app's status. */
    deliveries,
    now,
    /** Moves this server's clock (event times, periods) forward. */
    advance(seconds: number) {
      clockOffset += seconds;
    },
    /** Sets this server's clock back to the real time (periods of later subscriptions start now). */
    resetClock() {
      clockOffset = 0;
    },
    event,
    deliver,
    completeCheckout,
    endPeriod,
    failRenewal,
    deleteSubscription,
    /** Waits until the webhook deliveries started by API calls have been answered. */
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type StripeServer = Awaited<ReturnType<typeof startStripeServer>>;
