import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_SETTINGS_DEFAULTS, type UserSettings } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';

type ErrorBody = { message: string; code: string; data: { field?: string; httpStatus: number } };

describe('user settings', () => {
  let app: TestApp;
  let ana: string;
  let bo: string;
  let premium: string;
  beforeAll(async () => {
    app = await startTestApp();
    ana = await app.signIn('ana@example.com');
    bo = await app.signIn('bo@example.com');
    premium = await app.signIn('pia@example.com');
    await app.deps.db.user.update({
      where: { email: 'pia@example.com' },
      data: { isPremium: true, premiumUntil: new Date(Date.now() + 86_400_000) },
    });
  });
  afterAll(() => app.close());

  const get = (token?: string) => app.rest<UserSettings & ErrorBody>('GET', '/v1/user-settings', { token });
  const put = (token: string | undefined, body: unknown) =>
    app.rest<UserSettings & ErrorBody>('PUT', '/v1/user-settings', { token, body });

  it('answers every field with the defaults of product.md, Data', async () => {
    const response = await get(ana);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(USER_SETTINGS_DEFAULTS);
  });

  it('shows the derived premium state and premiumUntil in epoch seconds', async () => {
    const { body } = await get(premium);
    expect(body.isPremium).toBe(true);
    expect(body.premiumActive).toBe(true);
    expect(body.premiumUntil).toBeGreaterThan(Date.now() / 1000);
    expect(Number.isInteger(body.premiumUntil)).toBe(true);
    await app.deps.db.user.update({ where: { email: 'bo@example.com' }, data: { isPremium: true, premiumUntil: new Date(1000_000) } });
    const expired = await get(bo);
    expect(expired.body).toMatchObject({ isPremium: true, premiumUntil: 1000, premiumActive: false });
    await app.deps.db.user.update({ where: { email: 'bo@example.com' }, data: { isPremium: false, premiumUntil: null } });
  });

  it('merges only the fields sent and answers the saved settings', async () => {
    const first = await put(ana, { sendSummary: false, whiteEmailList: ['x@y.com', 'x@y.com'], timezone: 'Asia/Kolkata' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ sendSummary: false, whiteEmailList: ['x@y.com'], timezone: 'Asia/Kolkata', sendNoSummary: false });
    const second = await put(ana, { redirectEmails: 'a@b.co  c@d.org', sendNoSummary: true });
    expect(second.body).toMatchObject({
      sendSummary: false,
      sendNoSummary: true,
      whiteEmailList: ['x@y.com'],
      redirectEmails: 'a@b.co, c@d.org',
      timezone: 'Asia/Kolkata',
    });
    expect((await get(ana)).body).toEqual(second.body);
    const empty = await put(ana, {});
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(second.body);
  });

  it.each([
    [{ sendSummary: 'false' }, 'sendSummary'],
    [{ sendNoSummary: 1 }, 'sendNoSummary'],
    [{ whiteEmailList: ['not-an-email'] }, 'whiteEmailList.0'],
    [{ whiteEmailList: 'a@b.co' }, 'whiteEmailList'],
    [{ redirectEmails: 'a@b.co, a@b' }, 'redirectEmails'],
    [{ timezone: 'Mars/Olympus' }, 'timezone'],
    [{ isPremium: true }, '(body)'],
    [{ premiumUntil: 4_000_000_000 }, '(body)'],
    [{ unknownField: 1 }, '(body)'],
  ])('refuses %j with a 400 naming %s, changing nothing', async (body, field) => {
    const before = (await get(ana)).body;
    const response = await put(ana, body);
    expect(response.status).toBe(400);
    expect(response.body.data.field).toBe(field);
    expect(response.body.message).toMatch(/Invalid input/);
    expect((await get(ana)).body).toEqual(before);
  });

  it('names the invalid e-mail entries in the 400', async () => {
    const white = await put(ana, { whiteEmailList: ['ok@team.org', 'bad@host'] });
    expect(white.status).toBe(400);
    expect(white.body.data.field).toBe('whiteEmailList.1');
    expect(white.body.message).toContain('Invalid e-mail address: bad@host');
    const redirect = await put(ana, { redirectEmails: 'x@ ok@team.org, oops' });
    expect(redirect.status).toBe(400);
    expect(redirect.body.data.field).toBe('redirectEmails');
    expect(redirect.body.message).toContain('Invalid e-mail addresses: x@, oops');
  });

  it('refuses a body that is not an object or not JSON', async () => {
    for (const rawBody of ['[1,2]', '"text"', '{"sendSummary":', `{"redirectEmails":"${'a'.repeat(1_000_000)}"}`]) {
      const response = await app.rest('PUT', '/v1/user-settings', { token: ana, rawBody });
      expect(response.status, rawBody.slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(response.status, rawBody.slice(0, 20)).toBeLessThan(500);
    }
  });

  it('refuses premium-only fields for non-premium users with a clear 403', async () => {
    const before = (await get(ana)).body;
    for (const body of [
      { defaultSummaryDepth: 'deep' },
      { defaultMaxSummaryLength: 400 },
      { defaultMinSummaryLength: 300 },
      { defaultTranslateTo: 'fr' },
      { sendSummary: true, defaultTranslateTo: 'fr' },
    ]) {
      const response = await put(ana, body);
      expect(response.status, JSON.stringify(body)).toBe(403);
      expect(response.body.code).toBe('FORBIDDEN');
      expect(response.body.message).toMatch(/Only premium users can change default\w+/);
    }
    expect((await get(ana)).body).toEqual(before);
    // Sending the values already stored is not a change, so a client may send the whole object.
    const same = await put(ana, { defaultSummaryDepth: 'standard', defaultMinSummaryLength: 200, sendSummary: true });
    expect(same.status).toBe(200);
    expect(same.body.sendSummary).toBe(true);
  });

  it('lets premium users change summary defaults, validating each', async () => {
    const saved = await put(premium, {
      defaultSummaryDepth: 'speaker',
      defaultMinSummaryLength: 100,
      defaultMaxSummaryLength: 300,
      defaultTranslateTo: 'ua',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      defaultSummaryDepth: 'speaker',
      defaultMinSummaryLength: 100,
      defaultMaxSummaryLength: 300,
      defaultTranslateTo: 'ua',
    });
    for (const [body, field] of [
      [{ defaultSummaryDepth: 'abstract' }, 'defaultSummaryDepth'],
      [{ defaultSummaryDepth: 'nope' }, 'defaultSummaryDepth'],
      [{ defaultMinSummaryLength: 0 }, 'defaultMinSummaryLength'],
      [{ defaultMinSummaryLength: 125 }, 'defaultMinSummaryLength'],
      [{ defaultMinSummaryLength: 150.5 }, 'defaultMinSummaryLength'],
      [{ defaultMinSummaryLength: -50 }, 'defaultMinSummaryLength'],
      [{ defaultMinSummaryLength: 1e15 }, 'defaultMinSummaryLength'],
      [{ defaultMaxSummaryLength: '300' }, 'defaultMaxSummaryLength'],
      [{ defaultMaxSummaryLength: 10 }, 'defaultMaxSummaryLength'],
      [{ defaultTranslateTo: 'xx' }, 'defaultTranslateTo'],
      // Consistency once merged with what is stored (min 100, max 300).
      [{ defaultMinSummaryLength: 400 }, 'defaultMinSummaryLength'],
      [{ defaultMaxSummaryLength: 50 }, 'defaultMaxSummaryLength'],
      [{ defaultMinSummaryLength: 500, defaultMaxSummaryLength: 450 }, 'defaultMaxSummaryLength'],
    ] as const) {
      const response = await put(premium, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.data.field, JSON.stringify(body)).toBe(field);
    }
    expect((await get(premium)).body).toEqual(saved.body);
    const noLimit = await put(premium, { defaultMinSummaryLength: 1000, defaultMaxSummaryLength: 0, defaultTranslateTo: '' });
    expect(noLimit.body).toMatchObject({ defaultMinSummaryLength: 1000, defaultMaxSummaryLength: 0, defaultTranslateTo: '' });
  });

  it('works the same over tRPC', async () => {
    const client = app.trpc(bo);
    const saved = await client.settings.update.mutate({ whiteEmailList: ['bo@example.com'] });
    expect(saved.whiteEmailList).toEqual(['bo@example.com']);
    expect((await client.settings.get.query()).whiteEmailList).toEqual(['bo@example.com']);
    const refused = await client.settings.update.mutate({ defaultTranslateTo: 'de' }).catch((e: { data: { httpStatus: number } }) => e);
    expect(refused).toMatchObject({ data: { httpStatus: 403 } });
  });

  it("never shows or changes another user's settings", async () => {
    const anaBefore = (await get(ana)).body;
    await put(bo, { sendSummary: false, timezone: 'Europe/Berlin' });
    expect((await get(ana)).body).toEqual(anaBefore);
    expect((await get(bo)).body.timezone).toBe('Europe/Berlin');
  });

  it('completes onboarding', async () => {
    const response = await app.rest<UserSettings>('PUT', '/v1/user-settings/onboarding-complete', { token: bo });
    expect(response.status).toBe(200);
    expect(response.body.onboardingComplete).toBe(true);
    expect((await get(bo)).body.onboardingComplete).toBe(true);
    expect((await get(ana)).body.onboardingComplete).toBe(false);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await app.rest<{ paths: Record<string, unknown> }>('GET', '/v1/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/user-settings', '/user-settings/onboarding-complete']));
  });

  it('answers 401 without a valid token', async () => {
    expect((await get()).status).toBe(401);
    expect((await get('not-a-token')).status).toBe(401);
    expect((await put(undefined, { sendSummary: false })).status).toBe(401);
    expect((await app.rest('PUT', '/v1/user-settings/onboarding-complete')).status).toBe(401);
  });
});
