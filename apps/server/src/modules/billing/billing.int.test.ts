import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { isPremiumActive, type BillingAccount, type HostedPageAnswer, type Plan } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium } from '../../test/fixtures.js';
import { startStripeServer, type StripeServer, type StripeSubscription } from '../../test/stripe-server.js';
import { PAYMENTS_NOT_CONFIGURED, subscribe } from './service.js';
import { handleStripeEvent } from './webhook.js';

const PUBLIC_URL = 'https://mbox.example';
const DAY_MS = 24 * 60 * 60 * 1000;
// Void mutations go over REST here: the test client's unbatched httpLink sends them with no body.

/** A loopback port nothing listens on: Stripe "down". */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('billing with Stripe', () => {
  let app: TestApp;
  let stripe: StripeServer;

  beforeAll(async () => {
    stripe = await startStripeServer();
    app = await startTestApp({ ...stripe.appConfig(), PUBLIC_URL });
    stripe.setWebhookUrl(`${app.url}/v1/stripe/webhook`);
  });
  afterAll(async () => {
    await app.close();
    await stripe.close();
  });

  const userOf = (email: string) => app.deps.db.user.findUniqueOrThrow({ where: { email } });
  const checkout = async (token: string, planID: string) =>
    app.rest<HostedPageAnswer & { message?: string }>('GET', `/v1/subscription?planID=${planID}`, { token });
  const sessionIdOf = (answer: HostedPageAnswer) => {
    if (!('url' in answer)) throw new Error(`expected a url, got ${JSON.stringify(answer)}`);
    return answer.url.split('/').pop()!;
  };
  /** Signs in, opens checkout for the plan and pays: the subscription as Stripe has it. */
  const subscribed = async (email: string, planID: 'pro' | 'summarizer' = 'pro') => {
    const token = await app.signIn(email);
    const answer = await checkout(token, planID);
    expect(answer.status).toBe(200);
    const subscription = await stripe.completeCheckout(sessionIdOf(answer.body));
    return { token, subscription, user: await userOf(email) };
  };
  const periodEndOf = (subscription: StripeSubscription) => new Date((subscription.items.data[0]!.current_period_end as number) * 1000);
  const currentPlan = async (token: string) =>
    (await app.rest<Plan[]>('GET', '/v1/plans', { token })).body.find((plan) => plan.current)?.planId;

  it('opens a Checkout Session with the right fields and reuses the Stripe customer', async () => {
    const token = await app.signIn('buyer@example.com');
    const first = await checkout(token, 'pro');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ url: expect.stringMatching(new RegExp(`^${stripe.url}/checkout/cs_test_`)) });
    const user = await userOf('buyer@example.com');
    expect(user.stripeCustomerId).toMatch(/^cus_/);
    expect(stripe.customers.get(user.stripeCustomerId!)).toMatchObject({ email: 'buyer@example.com', metadata: { userId: user.id } });
    expect(stripe.sessions.get(sessionIdOf(first.body))).toMatchObject({
      mode: 'subscription',
      customer: user.stripeCustomerId,
      client_reference_id: user.id,
      metadata: { userId: user.id, planId: 'pro' },
      success_url: `${PUBLIC_URL}/payment-succeeded?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${PUBLIC_URL}/payment-failed`,
    });
    const request = stripe.requests.findLast((r) => r.path === '/v1/checkout/sessions')!;
    expect(request.form).toMatchObject({
      line_items: [{ price: 'price_pro', quantity: '1' }],
      subscription_data: { metadata: { userId: user.id, planId: 'pro' } },
    });

    const customersBefore = stripe.customers.size;
    const second = await app.trpc(token).billing.subscribe.mutate({ planID: 'summarizer' });
    expect(stripe.sessions.get(sessionIdOf(second))).toMatchObject({ customer: user.stripeCustomerId, metadata: { planId: 'summarizer' } });
    expect(stripe.customers.size).toBe(customersBefore);
    expect((await userOf('buyer@example.com')).stripeCustomerId).toBe(user.stripeCustomerId);
  });

  it('creates one customer when two first checkouts race', async () => {
    const token = await app.signIn('racer@example.com');
    const answers = await Promise.all([checkout(token, 'pro'), checkout(token, 'summarizer')]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const { stripeCustomerId } = await userOf('racer@example.com');
    const customers = answers.map((a) => stripe.sessions.get(sessionIdOf(a.body))?.customer);
    expect(customers).toEqual([stripeCustomerId, stripeCustomerId]);
  });

  it('refuses an unknown plan with a 400 naming it', async () => {
    const token = await app.signIn('typo@example.com');
    const response = await app.rest<{ message: string }>('GET', '/v1/subscription?planID=gold', { token });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/planID: Unknown plan: expected one of pro, summarizer/);
    expect((await app.rest('GET', '/v1/subscription', { token })).status).toBe(400);
  });

  it('answers a readable error when Stripe cannot be reached or a plan has no price', async () => {
    await app.signIn('offline@example.com');
    const { id } = await userOf('offline@example.com');
    const down = { ...app.deps, config: { ...app.deps.config, STRIPE_API_BASE: `http://127.0.0.1:${await closedPort()}` } };
    expect(await subscribe(down, id, 'pro')).toEqual({
      error: 'The payment service cannot be reached right now: please try again in a few minutes',
    });
    const unpriced = { ...app.deps, config: { ...app.deps.config, STRIPE_PRICE_SUMMARIZER: undefined } };
    expect(await subscribe(unpriced, id, 'summarizer')).toEqual({
      error: 'The Premium Summarizer Plan cannot be bought on this server: its price is not configured',
    });
  });

  it('grants premium until the period end when the checkout completes', async () => {
    const { token, subscription, user } = await subscribed('paid@example.com');
    expect(stripe.deliveries.slice(-3).map((d) => [d.event.type, d.status])).toEqual([
      ['customer.subscription.created', 200],
      ['invoice.paid', 200],
      ['checkout.session.completed', 200],
    ]);
    expect(user.isPremium).toBe(true);
    expect(user.premiumUntil).toEqual(periodEndOf(subscription));
    expect(user.premiumUntil!.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);
    expect(await app.deps.db.subscription.findMany({ where: { userId: user.id } })).toMatchObject([
      { planId: 'pro', status: 'active', externalId: subscription.id, cancelAtPeriodEnd: false, currentPeriodEnd: periodEndOf(subscription) },
    ]);
    expect(await currentPlan(token)).toBe('pro');
    expect(await app.trpc(token).billing.account.query()).toEqual({
      subscription: {
        planId: 'pro',
        status: 'active',
        currentPeriodEnd: (subscription.items.data[0]!.current_period_end as number),
        cancelAtPeriodEnd: false,
      },
      referralPremiumUntil: 0,
      canManageBilling: true,
      paymentsEnabled: true,
    } satisfies BillingAccount);
    const settings = await app.rest<{ premiumActive: boolean; premiumUntil: number }>('GET', '/v1/user-settings', { token });
    expect(settings.body).toMatchObject({ premiumActive: true, premiumUntil: subscription.items.data[0]!.current_period_end });

    expect((await checkout(token, 'pro')).body).toEqual({ error: 'You are already subscribed to the All in One Pro Plan' });
    expect((await checkout(token, 'summarizer')).body).toEqual({
      error: 'You are already subscribed to the All in One Pro Plan: change plans from Manage billing in your account',
    });
  });

  it('applies an event once, however often it is delivered', async () => {
    const { user, subscription } = await subscribed('replay@example.com');
    // An older period in an "updated" event: applied, it would shorten premium.
    const stale = structuredClone(subscription);
    const staleEnd = Math.floor(Date.now() / 1000) + 3600;
    stale.items.data[0]!.current_period_end = staleEnd;
    const event = stripe.event('customer.subscription.updated', stale);
    const answers = await Promise.all([1, 2, 3, 4].map(() => stripe.deliver(event)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => (a.body as { outcome: string }).outcome).sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'processed']);
    expect(await app.deps.db.stripeEvent.count({ where: { id: event.id } })).toBe(1);
    expect((await userOf('replay@example.com')).premiumUntil).toEqual(new Date(staleEnd * 1000));

    // The period moves on; the first event delivered again later changes nothing.
    const renewed = await stripe.endPeriod(subscription.id);
    expect((await userOf('replay@example.com')).premiumUntil).toEqual(periodEndOf(renewed));
    expect((await stripe.deliver(event)).body).toEqual({ received: true, outcome: 'duplicate' });
    expect((await userOf('replay@example.com')).premiumUntil).toEqual(periodEndOf(renewed));
    expect(await app.deps.db.subscription.count({ where: { userId: user.id } })).toBe(1);
  });

  it('refuses a bad or missing signature with a 400 and changes nothing', async () => {
    const { subscription } = await subscribed('signed@example.com');
    const before = await userOf('signed@example.com');
    const deleted = stripe.event('customer.subscription.deleted', { ...subscription, status: 'canceled' });
    const wrongSecret = await stripe.deliver(deleted, { secret: 'whsec_not_the_one' });
    const missing = await stripe.deliver(deleted, { signature: null });
    const garbage = await stripe.deliver(deleted, { signature: 't=1,v1=deadbeef' });
    expect([wrongSecret.status, missing.status, garbage.status]).toEqual([400, 400, 400]);
    expect(missing.body).toMatchObject({ message: 'Missing Stripe-Signature header', code: 'BAD_REQUEST' });
    expect(wrongSecret.body).toMatchObject({ message: expect.stringMatching(/^Invalid Stripe signature: /) });
    // A signed body changed in transit.
    const payload = JSON.stringify(deleted);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: stripe.webhookSecret });
    const tampered = await fetch(`${app.url}/v1/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: payload.replace('"canceled"', '"active" '),
    });
    expect(tampered.status).toBe(400);

    expect(await app.deps.db.stripeEvent.count({ where: { id: deleted.id } })).toBe(0);
    const after = await userOf('signed@example.com');
    expect([after.isPremium, after.premiumUntil]).toEqual([before.isPremium, before.premiumUntil]);
    expect(await app.deps.db.subscription.findUniqueOrThrow({ where: { externalId: subscription.id } })).toMatchObject({ status: 'active' });
  });

  it('keeps a deleted subscription deleted when an older "updated" arrives late', async () => {
    const { subscription, token } = await subscribed('late@example.com');
    const created = stripe.now();
    const updated = stripe.event('customer.subscription.updated', { ...subscription, cancel_at_period_end: true }, { created: created - 60 });
    const deleted = await stripe.deleteSubscription(subscription.id);
    expect(deleted.status).toBe('canceled');
    // Paid premium ends at once.
    expect(await userOf('late@example.com')).toMatchObject({ isPremium: false, premiumUntil: null });
    expect((await stripe.deliver(updated)).body).toEqual({ received: true, outcome: 'ignored' });
    // Even one stamped the same second as the deletion (Stripe's times are whole seconds).
    const sameSecond = stripe.event('customer.subscription.updated', { ...subscription, status: 'active' }, { created: stripe.now() });
    expect((await stripe.deliver(sameSecond)).body).toEqual({ received: true, outcome: 'ignored' });
    expect(await app.deps.db.subscription.findUniqueOrThrow({ where: { externalId: subscription.id } })).toMatchObject({ status: 'canceled' });
    expect(await userOf('late@example.com')).toMatchObject({ isPremium: false, premiumUntil: null });
    expect(await currentPlan(token)).toBe('basic');
  });

  it('ignores an event older than the last one applied', async () => {
    const { subscription } = await subscribed('order@example.com');
    const newer = stripe.event('customer.subscription.updated', { ...subscription, cancel_at_period_end: true }, { created: stripe.now() + 10 });
    const older = stripe.event('customer.subscription.updated', { ...subscription, cancel_at_period_end: false }, { created: stripe.now() + 5 });
    expect((await stripe.deliver(newer)).body).toMatchObject({ outcome: 'processed' });
    expect((await stripe.deliver(older)).body).toMatchObject({ outcome: 'ignored' });
    expect(await app.deps.db.subscription.findUniqueOrThrow({ where: { externalId: subscription.id } })).toMatchObject({ cancelAtPeriodEnd: true });
  });

  it('answers 500 when Stripe cannot be asked, storing nothing, so Stripe delivers the event again', async () => {
    const token = await app.signIn('retry@example.com');
    const answer = await checkout(token, 'pro');
    const sessionId = sessionIdOf(answer.body);
    // The checkout's own events go astray (404), so only the one below reaches the app.
    stripe.setWebhookUrl(`${app.url}/nowhere`);
    const subscription = await stripe.completeCheckout(sessionId);
    stripe.setWebhookUrl(`${app.url}/v1/stripe/webhook`);
    const completed = stripe.event('checkout.session.completed', { ...stripe.sessions.get(sessionId)!, subscription: subscription.id });

    const down = new Stripe(stripe.secretKey, { host: '127.0.0.1', port: await closedPort(), protocol: 'http', maxNetworkRetries: 0 });
    const payload = JSON.stringify(completed);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: stripe.webhookSecret });
    const verified = Stripe.webhooks.constructEvent(payload, header, stripe.webhookSecret);
    await expect(handleStripeEvent(app.deps, down, verified)).rejects.toThrow();
    expect(await app.deps.db.stripeEvent.count({ where: { id: completed.id } })).toBe(0);
    expect((await userOf('retry@example.com')).isPremium).toBe(false);

    expect((await stripe.deliver(completed)).body).toEqual({ received: true, outcome: 'processed' });
    expect((await userOf('retry@example.com')).premiumUntil).toEqual(periodEndOf(subscription));
  });

  it('stores and ignores events about subscriptions Stripe does not know or objects it does not handle', async () => {
    const unknown = stripe.event('invoice.paid', { id: 'in_x', object: 'invoice', parent: { subscription_details: { subscription: 'sub_gone' } } });
    expect((await stripe.deliver(unknown)).body).toEqual({ received: true, outcome: 'ignored' });
    const other = stripe.event('customer.created', { id: 'cus_x', object: 'customer' });
    expect((await stripe.deliver(other)).body).toEqual({ received: true, outcome: 'ignored' });
    expect(await app.deps.db.stripeEvent.count({ where: { id: { in: [unknown.id, other.id] } } })).toBe(2);
  });

  it('cancels at the period end: premium stays until then, then Basic', async () => {
    const { token, subscription } = await subscribed('leaver@example.com');
    const response = await app.rest('DELETE', '/v1/p/subscription', { token });
    expect(response).toEqual({ status: 200, body: { message: 'Subscription cancelled' } });
    expect(stripe.subscriptions.get(subscription.id)).toMatchObject({ cancel_at_period_end: true, status: 'active' });
    await stripe.settled();
    expect(stripe.deliveries.at(-1)).toMatchObject({ event: { type: 'customer.subscription.updated' }, status: 200 });
    const user = await userOf('leaver@example.com');
    expect(user.premiumUntil).toEqual(periodEndOf(subscription));
    expect(isPremiumActive(user)).toBe(true);
    expect(await app.trpc(token).billing.account.query()).toMatchObject({ subscription: { cancelAtPeriodEnd: true, status: 'active' } });
    // Asking again changes nothing and says the same.
    expect((await app.rest('DELETE', '/v1/p/subscription', { token })).body).toEqual({ message: 'Subscription cancelled' });

    await stripe.endPeriod(subscription.id);
    expect(stripe.deliveries.at(-1)).toMatchObject({ event: { type: 'customer.subscription.deleted' }, status: 200 });
    expect(await userOf('leaver@example.com')).toMatchObject({ isPremium: false, premiumUntil: null });
    expect(await currentPlan(token)).toBe('basic');
    // The summary settings are premium-only again (item 5: the server refuses them).
    const refused = await app.rest<{ message: string }>('PUT', '/v1/user-settings', { token, body: { defaultSummaryDepth: 'deep' } });
    expect(refused.status).toBe(403);
    // Cancelling is a premium call (/v1/p/): refused once premium is over.
    expect((await app.rest('DELETE', '/v1/p/subscription', { token })).status).toBe(403);
  });

  it('keeps premium through a declined renewal while Stripe retries (past_due)', async () => {
    const { subscription } = await subscribed('declined@example.com');
    const pastDue = await stripe.failRenewal(subscription.id);
    expect(stripe.deliveries.slice(-2).map((d) => [d.event.type, d.status])).toEqual([
      ['invoice.payment_failed', 200],
      ['customer.subscription.updated', 200],
    ]);
    expect(await app.deps.db.subscription.findUniqueOrThrow({ where: { externalId: subscription.id } })).toMatchObject({ status: 'past_due' });
    expect((await userOf('declined@example.com')).premiumUntil).toEqual(periodEndOf(pastDue));
    // Stripe gives up: the subscription is deleted and premium ends.
    await stripe.deleteSubscription(subscription.id);
    expect(await userOf('declined@example.com')).toMatchObject({ isPremium: false, premiumUntil: null });
  });

  it('combines referral and paid premium: the later end wins, deleting the paid plan keeps referral days', async () => {
    const referrer = await app.signIn('mentor@example.com');
    const { link } = await app.trpc(referrer).referral.link.query();
    const code = new URL(link).searchParams.get('code')!;
    const student = await app.signIn('student@example.com');
    expect((await app.rest('GET', `/v1/referral/${code}`, { token: student })).status).toBe(200);
    const referralEnd = (await userOf('student@example.com')).referralPremiumUntil!;
    expect((await userOf('student@example.com')).premiumUntil).toEqual(referralEnd);

    // Paid period ends after the referral days: it wins.
    stripe.resetClock();
    stripe.advance(10 * 24 * 3600);
    const { subscription } = await subscribed('student@example.com', 'summarizer');
    expect(periodEndOf(subscription).getTime()).toBeGreaterThan(referralEnd.getTime());
    expect(await userOf('student@example.com')).toMatchObject({ premiumUntil: periodEndOf(subscription), referralPremiumUntil: referralEnd });
    expect(await currentPlan(student)).toBe('summarizer');
    // Deleting the paid plan leaves the referral days.
    await stripe.deleteSubscription(subscription.id);
    expect(await userOf('student@example.com')).toMatchObject({ isPremium: true, premiumUntil: referralEnd, referralPremiumUntil: referralEnd });
    expect(await app.trpc(student).billing.account.query()).toMatchObject({
      subscription: null,
      referralPremiumUntil: Math.floor(referralEnd.getTime() / 1000),
    });

    // Referral days beyond the paid period win, and stay after the paid plan is cancelled.
    for (const email of ['fan1@example.com', 'fan2@example.com', 'fan3@example.com']) {
      expect((await app.rest('GET', `/v1/referral/${code}`, { token: await app.signIn(email) })).status).toBe(200);
    }
    const mentorReferralEnd = (await userOf('mentor@example.com')).referralPremiumUntil!;
    stripe.resetClock();
    const paid = await subscribed('mentor@example.com', 'pro');
    expect(mentorReferralEnd.getTime()).toBeGreaterThan(periodEndOf(paid.subscription).getTime());
    expect((await userOf('mentor@example.com')).premiumUntil).toEqual(mentorReferralEnd);
    expect((await app.rest('DELETE', '/v1/p/subscription', { token: referrer })).body).toEqual({ message: 'Subscription cancelled' });
    await stripe.settled();
    await stripe.endPeriod(paid.subscription.id);
    expect(await userOf('mentor@example.com')).toMatchObject({ isPremium: true, premiumUntil: mentorReferralEnd });
  });

  it("never lets a user touch another user's subscription", async () => {
    const owner = await subscribed('owner@example.com');
    const intruder = await app.signIn('intruder@example.com');
    const intruderUser = await userOf('intruder@example.com');

    // Premium from elsewhere (a referral) gives no hold on someone else's subscription.
    await makePremium(app, 'intruder@example.com');
    expect((await app.rest('DELETE', '/v1/p/subscription', { token: intruder })).body).toEqual({ error: 'You have no paid subscription to cancel' });
    expect(stripe.subscriptions.get(owner.subscription.id)).toMatchObject({ cancel_at_period_end: false });
    expect((await app.rest('GET', '/v1/billing/portal', { token: intruder })).body).toEqual({ error: 'You have no billing account yet: subscribe to a plan first' });
    expect(await app.trpc(intruder).billing.account.query()).toMatchObject({ subscription: null, canManageBilling: false });

    // An event naming the intruder for the owner's customer still belongs to the owner.
    const forged = stripe.event('customer.subscription.updated', {
      ...owner.subscription,
      metadata: { userId: intruderUser.id, planId: 'pro' },
    });
    expect((await stripe.deliver(forged)).status).toBe(200);
    expect(await app.deps.db.subscription.count({ where: { userId: intruderUser.id } })).toBe(0);
    expect(await userOf('intruder@example.com')).toMatchObject({ stripeCustomerId: null });
    expect(await currentPlan(intruder)).toBe('summarizer');
    expect(await currentPlan(owner.token)).toBe('pro');
  });

  it('opens the Customer Portal for a customer, returning to the Account tab', async () => {
    const { token, user } = await subscribed('portal@example.com');
    const answer = await app.rest<HostedPageAnswer>('GET', '/v1/billing/portal', { token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ url: expect.stringMatching(new RegExp(`^${stripe.url}/portal/bps_`)) });
    expect(stripe.requests.findLast((r) => r.path === '/v1/billing_portal/sessions')?.form).toEqual({
      customer: user.stripeCustomerId,
      return_url: `${PUBLIC_URL}/settings?tab=account`,
    });
    const page = await fetch((answer.body as { url: string }).url);
    expect(await page.text()).toContain('active');
  });

  it('is described in the OpenAPI document and needs a token', async () => {
    const doc = await app.rest<{ paths: Record<string, unknown> }>('GET', '/v1/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/subscription', '/p/subscription', '/billing/portal', '/billing/account']));
    for (const [method, path] of [
      ['GET', '/v1/subscription?planID=pro'],
      ['DELETE', '/v1/p/subscription'],
      ['GET', '/v1/billing/portal'],
      ['GET', '/v1/billing/account'],
    ] as const) {
      expect((await app.rest(method, path)).status, path).toBe(401);
    }
  });
});

describe('billing without Stripe configured', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('answers that payments are not configured, everywhere', async () => {
    const token = await app.signIn('nostripe@example.com');
    await makePremium(app, 'nostripe@example.com');
    expect((await app.rest('GET', '/v1/subscription?planID=pro', { token })).body).toEqual({ error: PAYMENTS_NOT_CONFIGURED });
    expect((await app.rest('DELETE', '/v1/p/subscription', { token })).body).toEqual({ error: PAYMENTS_NOT_CONFIGURED });
    expect((await app.rest('GET', '/v1/billing/portal', { token })).body).toEqual({ error: PAYMENTS_NOT_CONFIGURED });
    expect(await app.trpc(token).billing.account.query()).toEqual({
      subscription: null,
      referralPremiumUntil: 0,
      canManageBilling: false,
      paymentsEnabled: false,
    });
    const webhook = await app.rest<{ message: string }>('POST', '/v1/stripe/webhook', { rawBody: '{}' });
    expect(webhook.status).toBe(503);
    expect(webhook.body.message).toMatch(/Payments are not configured on this server/);
    expect(await app.deps.db.user.findUniqueOrThrow({ where: { email: 'nostripe@example.com' } })).toMatchObject({ stripeCustomerId: null });
  });

  it('hides the Enterprise card without a contact page, and shows it with one', async () => {
    const token = await app.signIn('plans@example.com');
    const plans = await app.trpc(token).plans.list.query();
    expect(plans.map((plan) => plan.planId)).toEqual(['basic', 'pro', 'summarizer']);
    const withContact = await startTestApp({ ENTERPRISE_CONTACT_URL: 'https://example.com/sales' });
    try {
      const other = await withContact.signIn('plans@example.com');
      expect((await withContact.trpc(other).plans.list.query()).find((plan) => plan.planId === 'enterprise')).toMatchObject({
        title: 'Enterprise Plan',
        contactUrl: 'https://example.com/sales',
      });
    } finally {
      await withContact.close();
    }
  });
});
