import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlans, type Plan } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { PAYMENTS_NOT_CONFIGURED } from '../billing/service.js';

describe('plans', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const current = async (token: string) => {
    const response = await app.rest<Plan[]>('GET', '/v1/plans', { token });
    expect(response.status).toBe(200);
    return response.body.filter((p) => p.current).map((p) => p.planId);
  };
  const makePremium = (email: string, days: number) =>
    app.deps.db.user.update({ where: { email }, data: { isPremium: true, premiumUntil: new Date(Date.now() + days * 86_400_000) } });

  it('answers the plan cards with Basic in use for a free user', async () => {
    const token = await app.signIn('free@example.com');
    const response = await app.rest<Plan[]>('GET', '/v1/plans', { token });
    expect(response.status).toBe(200);
    // The test server has no Stripe keys: the paid plans say they cannot be bought here.
    const unavailable = { pro: PAYMENTS_NOT_CONFIGURED, summarizer: PAYMENTS_NOT_CONFIGURED };
    expect(response.body).toEqual(buildPlans('basic', { unavailable }));
    expect(response.body.find((p) => p.planId === 'basic')).toMatchObject({ price: 'Free', current: true, actionText: 'In use' });
  });

  it('flags the plan of a live subscription for a premium user', async () => {
    const token = await app.signIn('pro@example.com');
    const user = await makePremium('pro@example.com', 20);
    await app.deps.db.subscription.create({ data: { userId: user.id, planId: 'pro', status: 'active' } });
    expect(await current(token)).toEqual(['pro']);
    expect((await app.trpc(token).plans.list.query()).find((p) => p.current)?.title).toBe('All in One Pro Plan');
  });

  it('flags the Premium Summarizer Plan for premium without a subscription (a referral)', async () => {
    const token = await app.signIn('referred@example.com');
    await makePremium('referred@example.com', 30);
    expect(await current(token)).toEqual(['summarizer']);
  });

  it('falls back to Basic once premium has expired, whatever the subscription row says', async () => {
    const token = await app.signIn('lapsed@example.com');
    const user = await makePremium('lapsed@example.com', -1);
    await app.deps.db.subscription.create({ data: { userId: user.id, planId: 'pro', status: 'active' } });
    expect(await current(token)).toEqual(['basic']);
  });

  it("is not swayed by another user's subscription", async () => {
    const token = await app.signIn('other@example.com');
    expect(await current(token)).toEqual(['basic']);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await app.rest<{ paths: Record<string, unknown> }>('GET', '/v1/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/plans']));
  });

  it('answers 401 without a valid token', async () => {
    expect((await app.rest('GET', '/v1/plans')).status).toBe(401);
    expect((await app.rest('GET', '/v1/plans', { token: 'bogus' })).status).toBe(401);
  });
});
