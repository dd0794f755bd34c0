import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';

const DAY = 86_400_000;
type ErrorBody = { message: string; code: string; data: { httpStatus: number; field?: string } };

describe('referrals', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ PUBLIC_URL: 'https://mbox.example.org' });
  });
  afterAll(() => app.close());

  const codeOf = async (token: string) => {
    const { status, body } = await app.rest<{ link: string }>('GET', '/v1/referral', { token });
    expect(status).toBe(200);
    return new URL(body.link).searchParams.get('code')!;
  };
  const accept = (token: string | undefined, code: string) =>
    app.rest<{ status: string } & ErrorBody>('GET', `/v1/referral/${encodeURIComponent(code)}`, { token });
  const premiumOf = (email: string) =>
    app.deps.db.user.findUniqueOrThrow({ where: { email }, select: { isPremium: true, premiumUntil: true } });

  it('gives a stable onboarding link per user', async () => {
    const ana = await app.signIn('ana@example.com');
    const bo = await app.signIn('bo@example.com');
    const first = await app.rest<{ link: string }>('GET', '/v1/referral', { token: ana });
    expect(first.body.link).toMatch(/^https:\/\/mbox\.example\.org\/onboarding\?code=[a-z0-9]+$/);
    expect((await app.rest<{ link: string }>('GET', '/v1/referral', { token: ana })).body).toEqual(first.body);
    expect(await codeOf(bo)).not.toBe(await codeOf(ana));
    expect((await app.trpc(ana).referral.link.query()).link).toBe(first.body.link);
  });

  it('defaults the link to http://localhost:PORT without PUBLIC_URL', async () => {
    const local = await startTestApp();
    try {
      const token = await local.signIn('ana@example.com');
      const { body } = await local.rest<{ link: string }>('GET', '/v1/referral', { token });
      expect(body.link).toMatch(new RegExp(`^http://localhost:${local.deps.config.PORT}/onboarding\\?code=`));
    } finally {
      await local.close();
    }
  });

  it('grants 30 days to the acceptor and to the referrer, once', async () => {
    const referrer = await app.signIn('ref@example.com');
    const acceptor = await app.signIn('new@example.com');
    const code = await codeOf(referrer);
    const before = Date.now();
    const response = await accept(acceptor, code);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'accepted' });
    for (const email of ['new@example.com', 'ref@example.com']) {
      const user = await premiumOf(email);
      expect(user.isPremium).toBe(true);
      expect(user.premiumUntil!.getTime()).toBeGreaterThanOrEqual(before + 30 * DAY);
      expect(user.premiumUntil!.getTime()).toBeLessThanOrEqual(Date.now() + 30 * DAY);
    }
    const settings = await app.rest<{ premiumActive: boolean }>('GET', '/v1/user-settings', { token: acceptor });
    expect(settings.body.premiumActive).toBe(true);

    // Again with the same code: nothing changes.
    const untilBefore = (await premiumOf('new@example.com')).premiumUntil;
    const again = await accept(acceptor, code);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ status: 'already-accepted' });
    expect((await premiumOf('new@example.com')).premiumUntil).toEqual(untilBefore);

    // Another code afterwards: refused.
    const other = await app.signIn('other-ref@example.com');
    const refused = await accept(acceptor, await codeOf(other));
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('You have already accepted a referral');
    expect((await premiumOf('other-ref@example.com')).isPremium).toBe(false);
  });

  it('extends running referral days instead of replacing them', async () => {
    const referrer = await app.signIn('ref2@example.com');
    const acceptor = await app.signIn('rich@example.com');
    const until = new Date(Date.now() + 100 * DAY);
    const expired = new Date(Date.now() - DAY);
    await app.deps.db.user.update({ where: { email: 'rich@example.com' }, data: { isPremium: true, premiumUntil: until, referralPremiumUntil: until } });
    await app.deps.db.user.update({
      where: { email: 'ref2@example.com' },
      data: { isPremium: true, premiumUntil: expired, referralPremiumUntil: expired },
    });
    expect((await accept(acceptor, await codeOf(referrer))).status).toBe(200);
    expect((await premiumOf('rich@example.com')).premiumUntil!.getTime()).toBe(until.getTime() + 30 * DAY);
    // An expired period restarts from now.
    expect((await premiumOf('ref2@example.com')).premiumUntil!.getTime()).toBeGreaterThan(Date.now() + 29 * DAY);
  });

  it('rewards the referrer for every acceptance, also concurrent ones', async () => {
    const referrer = await app.signIn('popular@example.com');
    const code = await codeOf(referrer);
    const tokens = await Promise.all([1, 2, 3, 4].map((i) => app.signIn(`fan${i}@example.com`)));
    const start = Date.now();
    const answers = await Promise.all(tokens.map((token) => accept(token, code)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const until = (await premiumOf('popular@example.com')).premiumUntil!.getTime();
    expect(until).toBeGreaterThanOrEqual(start + 120 * DAY);
    expect(until).toBeLessThanOrEqual(Date.now() + 120 * DAY);
    expect(await app.deps.db.referral.count({ where: { referrer: { email: 'popular@example.com' } } })).toBe(4);
  });

  it('answers one acceptance per user even when the same user sends two at once', async () => {
    const [a, b] = [await app.signIn('ra@example.com'), await app.signIn('rb@example.com')];
    const twice = await app.signIn('twice@example.com');
    const answers = await Promise.all([accept(twice, await codeOf(a)), accept(twice, await codeOf(b))]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await app.deps.db.referral.count({ where: { acceptor: { email: 'twice@example.com' } } })).toBe(1);
  });

  it('refuses the own code, unknown codes and a missing code, changing nothing', async () => {
    const token = await app.signIn('self@example.com');
    const own = await accept(token, await codeOf(token));
    expect(own.status).toBe(400);
    expect(own.body.message).toBe('You cannot accept your own referral code');
    const unknown = await accept(token, 'no-such-code');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Referral code not found: no-such-code');
    const tooLong = await accept(token, 'x'.repeat(65));
    expect(tooLong.status).toBe(400);
    // REST cannot send an empty path segment (GET /v1/referral/ is the link), so a blank code goes over tRPC.
    for (const code of ['', '   ']) {
      const blank = await app
        .trpc(token)
        .referral.accept.mutate({ code })
        .catch((e: { message: string; data: { httpStatus: number; field: string } }) => e);
      expect(blank).toMatchObject({ data: { httpStatus: 400, field: 'code' } });
      expect('message' in blank && blank.message).toMatch(/A referral code is required/);
    }
    expect((await premiumOf('self@example.com')).isPremium).toBe(false);
    expect(await app.deps.db.referral.count({ where: { acceptor: { email: 'self@example.com' } } })).toBe(0);
  });

  it('accepts within 24 hours of the account\'s creation (the web app completes onboarding first), not after', async () => {
    const referrer = await app.signIn('onboarding-ref@example.com');
    const code = await codeOf(referrer);
    // The web app's order: onboarding-complete, then the code from the link.
    const fresh = await app.signIn('fresh@example.com');
    expect((await app.rest('PUT', '/v1/user-settings/onboarding-complete', { token: fresh })).status).toBe(200);
    expect((await accept(fresh, code)).body).toEqual({ status: 'accepted' });

    // An account onboarded long ago cannot pick up a code any more.
    const veteran = await app.signIn('veteran@example.com');
    expect((await app.rest('PUT', '/v1/user-settings/onboarding-complete', { token: veteran })).status).toBe(200);
    await app.deps.db.user.update({ where: { email: 'veteran@example.com' }, data: { createdAt: new Date(Date.now() - 2 * DAY) } });
    const late = await accept(veteran, code);
    expect(late.status).toBe(403);
    expect(late.body.message).toBe('A referral code can only be accepted within 24 hours of creating the account');
    expect((await premiumOf('veteran@example.com')).isPremium).toBe(false);

    // Nor can an account days old that never completed onboarding.
    const slow = await app.signIn('slow@example.com');
    await app.deps.db.user.update({ where: { email: 'slow@example.com' }, data: { createdAt: new Date(Date.now() - 10 * DAY) } });
    expect((await accept(slow, code)).status).toBe(403);
    expect((await premiumOf('slow@example.com')).isPremium).toBe(false);
  });

  it('cannot be reopened by setting onboardingComplete back to false', async () => {
    const referrer = await app.signIn('reset-ref@example.com');
    const old = await app.signIn('reset@example.com');
    expect((await app.rest('PUT', '/v1/user-settings/onboarding-complete', { token: old })).status).toBe(200);
    await app.deps.db.user.update({ where: { email: 'reset@example.com' }, data: { createdAt: new Date(Date.now() - 3 * DAY) } });
    const reset = await app.rest<ErrorBody>('PUT', '/v1/user-settings', { token: old, body: { onboardingComplete: false } });
    expect(reset.status).toBe(400);
    expect(reset.body.data.field).toBe('onboardingComplete');
    expect(reset.body.message).toMatch(/onboardingComplete only goes from false to true/);
    expect((await app.rest<{ onboardingComplete: boolean }>('GET', '/v1/user-settings', { token: old })).body.onboardingComplete).toBe(true);
    expect((await accept(old, await codeOf(referrer))).status).toBe(403);
    expect((await premiumOf('reset@example.com')).isPremium).toBe(false);
    // Sending the value it has is harmless (clients may send the whole object).
    expect((await app.rest('PUT', '/v1/user-settings', { token: old, body: { onboardingComplete: true } })).status).toBe(200);
  });

  it('refuses referrals along a cycle: mutual ones and longer rings', async () => {
    const ana = await app.signIn('mutual-a@example.com');
    const bo = await app.signIn('mutual-b@example.com');
    expect((await accept(ana, await codeOf(bo))).status).toBe(200);
    const back = await accept(bo, await codeOf(ana));
    expect(back.status).toBe(400);
    expect(back.body.message).toBe('You cannot accept the referral code of someone you referred, directly or through others');
    expect(await app.deps.db.referral.count({ where: { acceptor: { email: 'mutual-b@example.com' } } })).toBe(0);
    const until = (await premiumOf('mutual-a@example.com')).premiumUntil!.getTime();
    expect(until).toBeLessThanOrEqual(Date.now() + 30 * DAY);

    // A accepts B's code, B accepts C's, C accepts D's: D may not close the ring with A's code.
    const [a, b, c, d] = await Promise.all(['ring-a', 'ring-b', 'ring-c', 'ring-d'].map((name) => app.signIn(`${name}@example.com`)));
    expect((await accept(a!, await codeOf(b!))).status).toBe(200);
    expect((await accept(b!, await codeOf(c!))).status).toBe(200);
    expect((await accept(c!, await codeOf(d!))).status).toBe(200);
    const ring = await accept(d!, await codeOf(a!));
    expect(ring.status).toBe(400);
    expect(ring.body.message).toBe('You cannot accept the referral code of someone you referred, directly or through others');
    expect(await app.deps.db.referral.count({ where: { acceptor: { email: 'ring-d@example.com' } } })).toBe(0);
    // Outside the chain D still may accept.
    const e = await app.signIn('ring-e@example.com');
    expect((await accept(d!, await codeOf(e))).body).toEqual({ status: 'accepted' });
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await app.rest<{ paths: Record<string, unknown> }>('GET', '/v1/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/referral', '/referral/{code}']));
  });

  it('answers 401 without a valid token', async () => {
    const ana = await app.signIn('ana@example.com');
    expect((await app.rest('GET', '/v1/referral')).status).toBe(401);
    expect((await accept(undefined, await codeOf(ana))).status).toBe(401);
    expect((await accept('bogus', await codeOf(ana))).status).toBe(401);
  });
});
