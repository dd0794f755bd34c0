import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MIN_SUMMARY_MESSAGES } from '@mbox/shared';
import { WEBHOOKS_PER_USER, type Webhook, type WebhookPayload } from '@mbox/shared/webhooks';
import { startTestApp, type TestApp } from '../../test/app.js';
import { seedMeeting, type SeedLine } from '../../test/fixtures.js';
import { deliverWebhook, sealClearWebhookSecrets } from './service.js';
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from '../../test/webhook-receiver.js';

type ErrorBody = { message: string; code: string; data: { field?: string; httpStatus: number } };

const talk = (count: number): SeedLine[] =>
  Array.from({ length: count }, (_, i) => ({ speaker: i % 2 ? 'Bo' : 'Ana', text: `We agreed on point ${i} and will ship it on Friday.` }));

/**
 * Verifies a delivery as a receiver would, independently of the server's code: Node's HMAC over the
 * raw bytes received, the scheme of docs/webhooks.md.
 */
function verifySignature(request: ReceivedRequest, secret: string): boolean {
  const header = String(request.headers['mbox-signature'] ?? '');
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const [, t, signature] = match;
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${t}.`), request.rawBody])).digest();
  return timingSafeEqual(expected, Buffer.from(signature!, 'hex'));
}

describe('webhooks', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let ana: string;
  let bo: string;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    app = await startTestApp({
      WEBHOOK_ALLOWED_HOSTS: [receiver.host],
      PUBLIC_URL: 'https://mbox.example.org',
      // Short waits so retries happen within the test: 1 s, then 2 s, 4 s… (pg-boss adds jitter).
      WEBHOOK_RETRY_DELAY_SECONDS: 1,
      JOB_POLL_SECONDS: 0.5,
    });
    ana = await app.signIn('ana@example.com');
    bo = await app.signIn('bo@example.com');
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    await app.deps.db.webhook.deleteMany({});
    receiver.requests.length = 0;
    receiver.answers.length = 0;
  });

  const create = (token: string | undefined, body: unknown) => app.rest<Webhook & ErrorBody>('POST', '/v1/webhooks', { token, body });
  const list = async (token: string) => (await app.rest<{ webhooks: Webhook[] }>('GET', '/v1/webhooks', { token })).body.webhooks;
  const register = async (token: string, events = ['meeting.finished', 'summary.created'], path = '/hook') => {
    const response = await create(token, { url: `${receiver.url}${path}`, events });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
  /** Polls the owner's list until the newest delivery of `hookId` settles (delivered or failed). */
  const settled = async (token: string, hookId: string, timeout = 20_000) => {
    await expect
      .poll(async () => (await list(token)).find((h) => h.id === hookId)?.deliveries[0]?.status, { timeout, interval: 200 })
      .toMatch(/delivered|failed/);
    return (await list(token)).find((h) => h.id === hookId)!;
  };
  it('registers a webhook with its own secret, lists it to its owner and deletes it', async () => {
    const first = await register(ana, ['summary.created', 'meeting.finished', 'summary.created']);
    expect(first).toMatchObject({ url: `${receiver.url}/hook`, events: ['meeting.finished', 'summary.created'], deliveries: [] });
    expect(first.secret).toMatch(/^whsec_[\w-]{43}$/);
    const second = await register(ana, ['meeting.finished'], '/other');
    expect(second.secret).not.toBe(first.secret);
    expect((await list(ana)).map((h) => h.id)).toEqual([first.id, second.id]);

    const removed = await app.rest('DELETE', `/v1/webhooks/${first.id}`, { token: ana });
    expect(removed).toEqual({ status: 200, body: { id: first.id } });
    expect((await list(ana)).map((h) => h.id)).toEqual([second.id]);
    expect((await app.rest<ErrorBody>('DELETE', `/v1/webhooks/${first.id}`, { token: ana })).status).toBe(404);
  });

  it("never shows, deletes or tests another user's webhook", async () => {
    const hook = await register(ana);
    expect(await list(bo)).toEqual([]);
    const deleted = await app.rest<ErrorBody>('DELETE', `/v1/webhooks/${hook.id}`, { token: bo });
    expect(deleted.status).toBe(404);
    expect(deleted.body.message).toBe('Webhook not found');
    expect((await app.rest('POST', `/v1/webhooks/${hook.id}/test`, { token: bo })).status).toBe(404);
    await expect(app.trpc(bo).webhooks.delete.mutate({ id: hook.id })).rejects.toMatchObject({ data: { httpStatus: 404 } });
    expect((await list(ana)).map((h) => h.id)).toEqual([hook.id]);
    expect(receiver.requests).toEqual([]);
  });

  it('answers 401 without a valid token', async () => {
    expect((await app.rest('GET', '/v1/webhooks')).status).toBe(401);
    expect((await create(undefined, { url: `${receiver.url}/hook`, events: ['summary.created'] })).status).toBe(401);
    expect((await app.rest('DELETE', '/v1/webhooks/x', { token: 'nope' })).status).toBe(401);
  });

  it.each([
    [{ url: 'ftp://example.com/hook', events: ['summary.created'] }, 'url', /must start with https:\/\/ or http:\/\//],
    [{ url: 'hooks.example.com/x', events: ['summary.created'] }, 'url', /Not a valid URL/],
    [{ url: 'https://user:pw@example.com/hook', events: ['summary.created'] }, 'url', /user name or password/],
    [{ url: '', events: ['summary.created'] }, 'url', /Enter the URL/],
    [{ url: `https://example.com/${'a'.repeat(2100)}`, events: ['summary.created'] }, 'url', /too long/],
    [{ url: 'http://127.0.0.1/hook', events: ['summary.created'] }, 'url', /private, local or reserved/],
    [{ url: 'http://[::ffff:10.0.0.1]/hook', events: ['summary.created'] }, 'url', /private, local or reserved/],
    [{ url: 'http://169.254.169.254/latest', events: ['summary.created'] }, 'url', /private, local or reserved/],
    [{ url: 'http://localhost/hook', events: ['summary.created'] }, 'url', /private, local or reserved/],
    [{ url: 'https://example.com:8443/hook', events: ['summary.created'] }, 'url', /only ports 80 and 443/],
    [{ url: 'https://example.com/hook', events: [] }, 'events', /at least one event/],
    [{ url: 'https://example.com/hook', events: ['meeting.started'] }, 'events.0', /Unknown event/],
    [{ url: 'https://example.com/hook' }, 'events', /./],
    [{ url: 'https://example.com/hook', events: ['summary.created'], secret: 'mine' }, '(body)', /./],
  ])('refuses %j with a 400 naming %s', async (body, field, message) => {
    const response = await create(ana, body);
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.data.field).toBe(field);
    expect(response.body.message).toMatch(message);
    expect(await list(ana)).toEqual([]);
  });

  it('opens only WEBHOOK_ALLOWED_HOSTS to webhooks: the summarizer\'s allow-list does not', async () => {
    const summarizerOnly = await startTestApp({ SUMMARIZER_ALLOWED_HOSTS: [receiver.host] });
    try {
      const token = await summarizerOnly.signIn('ana@example.com');
      const refused = await summarizerOnly.rest<ErrorBody>('POST', '/v1/webhooks', {
        token,
        body: { url: `${receiver.url}/intranet`, events: ['summary.created'] },
      });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.data.field).toBe('url');
      expect(refused.body.message).toMatch(/only ports 80 and 443.*WEBHOOK_ALLOWED_HOSTS/);
      expect(await summarizerOnly.deps.db.webhook.count()).toBe(0);
    } finally {
      await summarizerOnly.close();
    }
    // The server of these tests names the receiver in WEBHOOK_ALLOWED_HOSTS.
    expect((await create(ana, { url: `${receiver.url}/intranet`, events: ['summary.created'] })).status).toBe(200);
  });

  it(`keeps at most ${WEBHOOKS_PER_USER} webhooks per user`, async () => {
    await Promise.all(Array.from({ length: WEBHOOKS_PER_USER + 2 }, (_, i) => create(ana, { url: `${receiver.url}/h${i}`, events: ['summary.created'] })));
    expect(await list(ana)).toHaveLength(WEBHOOKS_PER_USER);
    const refused = await create(ana, { url: `${receiver.url}/more`, events: ['summary.created'] });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/At most 10 webhooks/);
    expect((await create(bo, { url: `${receiver.url}/bo`, events: ['summary.created'] })).status).toBe(200);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await app.rest<{ paths: Record<string, unknown> }>('GET', '/v1/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/webhooks', '/webhooks/{id}', '/webhooks/{id}/test']));
  });

  describe('one delivery attempt (the job body)', () => {
    const pending = async (webhookId: string) =>
      (
        await app.deps.db.webhookDelivery.create({
          data: {
            webhookId,
            event: 'ping',
            payload: { id: 'evt_test', event: 'ping', createdAt: '2026-11-23T15:00:00.000Z', data: { message: 'héllo ✓ "quoted"' } },
          },
        })
      ).id;
    const stored = (id: string) => app.deps.db.webhookDelivery.findUniqueOrThrow({ where: { id } });

    it('POSTs the payload signed over the exact bytes sent, and records the success', async () => {
      const hook = await register(ana);
      const id = await pending(hook.id);
      await deliverWebhook(app.deps, id, { lastAttempt: false });
      expect(receiver.requests).toHaveLength(1);
      const [request] = receiver.requests;
      expect(request).toMatchObject({ method: 'POST', path: '/hook' });
      expect(request!.headers).toMatchObject({ 'content-type': 'application/json', 'mbox-event': 'ping', 'mbox-delivery': id });
      expect(request!.headers['user-agent']).toMatch(/^Mbox-Webhooks\//);
      expect(verifySignature(request!, hook.secret)).toBe(true);
      expect(verifySignature(request!, 'whsec_other')).toBe(false);
      const tampered = { ...request!, rawBody: Buffer.from(request!.rawBody.toString('utf8').replace('ping', 'pong')) };
      expect(verifySignature(tampered, hook.secret)).toBe(false);
      expect(JSON.parse(request!.rawBody.toString('utf8'))).toMatchObject({ id: 'evt_test', event: 'ping', data: { message: 'héllo ✓ "quoted"' } });
      expect(await stored(id)).toMatchObject({ status: 'delivered', attempts: 1, responseStatus: 204, error: '', deliveredAt: expect.any(Date) });
      // Done is done: running the job again sends nothing.
      await deliverWebhook(app.deps, id, { lastAttempt: false });
      expect(receiver.requests).toHaveLength(1);
    });

    it('stores the signing secret sealed with the master key; a secret stored in clear before is sealed at start-up and still signs', async () => {
      const hook = await register(ana);
      const [row] = await app.deps.db.$queryRaw<{ secret: string }[]>`SELECT secret FROM "Webhook" WHERE id = ${hook.id}`;
      expect(row!.secret).toMatch(/^enc1:[A-Za-z0-9+/=]+$/);
      expect(row!.secret).not.toContain(hook.secret.slice(6));
      expect((await list(ana))[0]!.secret).toBe(hook.secret);

      // A row written by a version that stored secrets in clear: reads and deliveries still work…
      const legacy = 'whsec_' + 'L'.repeat(43);
      await app.deps.db.$executeRaw`UPDATE "Webhook" SET secret = ${legacy} WHERE id = ${hook.id}`;
      expect((await list(ana))[0]!.secret).toBe(legacy);
      await deliverWebhook(app.deps, await pending(hook.id), { lastAttempt: false });
      expect(verifySignature(receiver.requests.at(-1)!, legacy)).toBe(true);
      // …and the start-up step seals it, once.
      expect(await sealClearWebhookSecrets(app.deps)).toBe(1);
      expect(await sealClearWebhookSecrets(app.deps)).toBe(0);
      const [sealed] = await app.deps.db.$queryRaw<{ secret: string }[]>`SELECT secret FROM "Webhook" WHERE id = ${hook.id}`;
      expect(sealed!.secret).toMatch(/^enc1:/);
      expect(sealed!.secret).not.toContain('LLLL');
      expect((await list(ana))[0]!.secret).toBe(legacy);
      await deliverWebhook(app.deps, await pending(hook.id), { lastAttempt: false });
      expect(verifySignature(receiver.requests.at(-1)!, legacy)).toBe(true);
    });

    it('records a failed attempt and throws so the queue retries; the last attempt fails for good', async () => {
      const hook = await register(ana);
      const id = await pending(hook.id);
      receiver.answers.push(500, 'drop', 404);
      await expect(deliverWebhook(app.deps, id, { lastAttempt: false })).rejects.toThrow('The receiver answered HTTP 500');
      expect(await stored(id)).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500 });
      await expect(deliverWebhook(app.deps, id, { lastAttempt: false })).rejects.toThrow(/could not be reached/);
      expect(await stored(id)).toMatchObject({ status: 'pending', attempts: 2, responseStatus: null });
      await deliverWebhook(app.deps, id, { lastAttempt: true });
      expect(await stored(id)).toMatchObject({ status: 'failed', attempts: 3, responseStatus: 404, error: 'The receiver answered HTTP 404' });
      const [listed] = await list(ana);
      expect(listed!.deliveries[0]).toMatchObject({ id, status: 'failed', attempts: 3, responseStatus: 404 });
    });

    it('refuses for good, without retrying, a receiver whose address is not public at delivery time', async () => {
      // Stored directly: as if its name resolved to a public address at registration and not any more.
      const owner = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'ana@example.com' } });
      for (const url of ['http://localhost/hook', 'http://127.0.0.1/hook', 'http://[::1]/hook', `${receiver.url.replace('127.0.0.1', 'localhost')}/hook`]) {
        const hook = await app.deps.db.webhook.create({ data: { userId: owner.id, url, events: ['summary.created'], secret: 'whsec_test' } });
        const id = await pending(hook.id);
        await deliverWebhook(app.deps, id, { lastAttempt: false });
        const delivery = await stored(id);
        expect(delivery, url).toMatchObject({ status: 'failed', attempts: 1, responseStatus: null });
        expect(delivery.error, url).toMatch(/Webhook URL refused: (it points to a private|only ports 80 and 443)/);
      }
      expect(receiver.requests).toEqual([]);
    });

    it("leaves a deleted webhook's delivery alone", async () => {
      const hook = await register(ana);
      const id = await pending(hook.id);
      await app.rest('DELETE', `/v1/webhooks/${hook.id}`, { token: ana });
      await deliverWebhook(app.deps, id, { lastAttempt: false });
      expect(receiver.requests).toEqual([]);
      expect(await app.deps.db.webhookDelivery.count({ where: { id } })).toBe(0);
    });
  });

  describe('through the queue', () => {
    it('delivers summary.created to subscribed webhooks, signed over the raw body', async () => {
      const hook = await register(ana, ['summary.created']);
      const other = await register(ana, ['meeting.finished'], '/finished-only');
      const { meetingKey } = await seedMeeting(app, ana, 'weekly', talk(MIN_SUMMARY_MESSAGES + 2));
      const generated = await app.rest<{ docId: string; title: string; text: string }>('POST', '/v1/prompts', {
        token: ana,
        body: { meetKey: meetingKey, promptKey: 'summary' },
      });
      expect(generated.status).toBe(200);

      const settledHook = await settled(ana, hook.id);
      expect(settledHook.deliveries).toHaveLength(1);
      expect(settledHook.deliveries[0]).toMatchObject({ event: 'summary.created', status: 'delivered', attempts: 1, responseStatus: 204, error: '' });
      expect(receiver.requests).toHaveLength(1);
      const [request] = receiver.requests;
      expect(request).toMatchObject({ method: 'POST', path: '/hook' });
      expect(request!.headers).toMatchObject({
        'content-type': 'application/json',
        'mbox-event': 'summary.created',
        'mbox-delivery': settledHook.deliveries[0]!.id,
      });
      expect(verifySignature(request!, hook.secret)).toBe(true);
      expect(verifySignature(request!, other.secret)).toBe(false);
      // One changed byte of the body, and the signature no longer holds.
      const tampered = { ...request!, rawBody: Buffer.from(request!.rawBody.toString('utf8').replace('summary', 'summarx')) };
      expect(verifySignature(tampered, hook.secret)).toBe(false);

      const payload = JSON.parse(request!.rawBody.toString('utf8')) as WebhookPayload<'summary.created'>;
      expect(payload).toEqual({
        id: expect.stringMatching(/^evt_/),
        event: 'summary.created',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        data: {
          meeting: { id: meetingKey, title: 'Untitled meet', url: `https://mbox.example.org/${meetingKey}` },
          summary: { id: generated.body.docId, promptKey: 'summary', title: generated.body.title, text: generated.body.text, encrypted: false },
        },
      });
      // The webhook not subscribed to the event got nothing.
      expect((await list(ana)).find((h) => h.id === other.id)!.deliveries).toEqual([]);
    });

    it('retries a failing receiver with exponential backoff until it succeeds', async () => {
      const hook = await register(ana, ['summary.created']);
      receiver.answers.push(500, 'drop');
      const response = await app.rest('POST', `/v1/webhooks/${hook.id}/test`, { token: ana });
      expect(response.status).toBe(200);

      const done = await settled(ana, hook.id, 30_000);
      expect(done.deliveries[0]).toMatchObject({ event: 'ping', status: 'delivered', attempts: 3, responseStatus: 204, error: '' });
      expect(receiver.requests).toHaveLength(3);
      for (const request of receiver.requests) expect(verifySignature(request, hook.secret)).toBe(true);
      // Same event and delivery in every attempt.
      const ids = receiver.requests.map((r) => [r.headers['mbox-delivery'], (JSON.parse(r.rawBody.toString()) as WebhookPayload).id]);
      expect(new Set(ids.map((pair) => pair.join()))).toHaveProperty('size', 1);
      // Waits of the retry delay (1 s), then double: pg-boss's backoff.
      const [a, b, c] = receiver.requests.map((r) => r.at);
      expect(b! - a!).toBeGreaterThanOrEqual(1000);
      expect(c! - b!).toBeGreaterThanOrEqual(2000);
    });

    it('records the failure of each attempt while it retries', async () => {
      const hook = await register(ana, ['summary.created']);
      receiver.answers.push(503, 503, 503, 503, 503, 503, 503, 503, 503);
      await app.rest('POST', `/v1/webhooks/${hook.id}/test`, { token: ana });
      await expect
        .poll(async () => (await list(ana))[0]!.deliveries[0], { timeout: 10_000, interval: 200 })
        .toMatchObject({ status: 'pending', attempts: 1, responseStatus: 503, error: 'The receiver answered HTTP 503' });
      // Deleting the webhook stops its retries: nothing more reaches the receiver.
      await app.rest('DELETE', `/v1/webhooks/${hook.id}`, { token: ana });
      const count = receiver.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 3500));
      expect(receiver.requests.length).toBe(count);
      expect(await app.deps.db.webhookDelivery.count({ where: { webhookId: hook.id } })).toBe(0);
    });
  });
});
