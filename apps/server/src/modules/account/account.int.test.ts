import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_EXPORT_PATH,
  accountExportActionItemsSchema,
  accountExportSchema,
  meetingExportSchema,
  type DeleteAccountOutput,
  type HostedPageAnswer,
  type UserSettings,
} from '@mbox/shared';
import type { Config } from '../../config.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium, seedMeeting } from '../../test/fixtures.js';
import { unzip } from '../../test/zip.js';
import { startStripeServer } from '../../test/stripe-server.js';
import { outboxDir } from '../recap/mailer.js';

async function download(app: TestApp, token: string | undefined, query = '') {
  const response = await fetch(`${app.url}${ACCOUNT_EXPORT_PATH}${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

const TALK = [
  { speaker: 'Ana', text: 'Welcome everyone, today we decide the launch date for the new billing page.' },
  { speaker: 'Ben', text: 'The billing page is ready for review; QA found two bugs in the invoice export.' },
  { speaker: 'Ana', text: 'Then we fix the invoice export bugs first and launch next Tuesday.' },
  { speaker: 'Ben', text: 'Agreed. I will fix the export bugs by Friday and send the release notes.' },
  { speaker: 'Ana', text: 'Great. Carla will announce the launch to customers on Tuesday morning.' },
];

describe('Download my data', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: ['127.0.0.1:9'] });
  });
  afterAll(() => app.close());

  it('answers a zip of account.json and every meeting as JSON and Markdown, with marks, summaries and settings; nobody else’s', async () => {
    const token = await app.signIn('exporter@example.com');
    const other = await app.signIn('someone-else@example.com');
    await seedMeeting(app, other, 'other', [{ speaker: 'Zed', text: 'A line of another account that must not be exported.' }]);
    const first = await seedMeeting(app, token, 'first', TALK, Date.UTC(2026, 10, 20, 15, 0));
    await seedMeeting(app, token, 'second', [{ speaker: 'Ana', text: 'A second meeting, one line only.' }], Date.UTC(2026, 10, 21, 9, 0));
    const marked = first.messages[1]!;
    expect((await app.rest('PUT', `/v1/message/mark/${marked.key}`, { token, body: { marks: ['important'] } })).status).toBe(200);
    expect((await app.rest('PUT', `/v1/message/comment/${marked.key}`, { token, body: { comment: 'Check the invoice bugs' } })).status).toBe(200);
    const summary = await app.rest<{ text: string }>('POST', '/v1/prompts', { token, body: { meetKey: first.meetingKey, promptKey: 'summary' } });
    expect(summary.status, JSON.stringify(summary.body)).toBe(200);
    expect((await app.rest('PUT', '/v1/user-settings', { token, body: { sendNoSummary: true, whiteEmailList: ['team@example.com'] } })).status).toBe(200);
    // An action item of the first meeting, as its end would have read it.
    const meetingRow = await app.deps.db.meeting.findUniqueOrThrow({ where: { id: first.meetingKey } });
    await app.deps.db.actionItem.create({
      data: {
        userId: meetingRow.userId,
        meetingId: meetingRow.id,
        meetingStartedAt: meetingRow.startedAt,
        position: 0,
        sourceKey: `line:${first.messages[2]!.key}`,
        text: 'Fix the invoice bugs.',
        owner: 'Ana',
      },
    });
    const hook = await app.rest('POST', '/v1/webhooks', { token, body: { url: 'http://127.0.0.1:9/hook', events: ['meeting.finished'] } });
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);

    const { response, body } = await download(app, token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="mbox-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const entries = await unzip(body);
    const names = [...entries.keys()];
    expect(names.slice(0, 2)).toEqual(['account.json', 'action-items.json']);
    expect(names.slice(2)).toEqual([
      expect.stringMatching(/^meetings\/2026-11-20-Untitled meet-\w+\.json$/),
      expect.stringMatching(/^meetings\/2026-11-20-Untitled meet-\w+\.md$/),
      expect.stringMatching(/^meetings\/2026-11-21-Untitled meet-\w+\.json$/),
      expect.stringMatching(/^meetings\/2026-11-21-Untitled meet-\w+\.md$/),
    ]);

    const account = accountExportSchema.parse(JSON.parse(entries.get('account.json')!));
    expect(account.user.email).toBe('exporter@example.com');
    expect(account.settings).toMatchObject({ sendNoSummary: true, whiteEmailList: ['team@example.com'] } satisfies Partial<UserSettings>);
    expect(account.webhooks).toEqual([{ url: 'http://127.0.0.1:9/hook', events: ['meeting.finished'], createdAt: expect.any(Number) }]);
    expect(entries.get('account.json')).not.toContain('whsec_');
    expect(account.meetings).toBe(2);

    // The first meeting's action item, as the ledger lists it.
    expect(accountExportActionItemsSchema.parse(JSON.parse(entries.get('action-items.json')!))).toEqual([
      expect.objectContaining({ text: 'Fix the invoice bugs.', owner: 'Ana', meeting: expect.objectContaining({ id: first.meetingKey }) }),
    ]);
    const meeting = meetingExportSchema.parse(JSON.parse(entries.get(names[2]!)!));
    expect(meeting.meeting.meet.key).toBe(first.meetingKey);
    expect(meeting.meeting.messages.map((m) => m.text)).toEqual(TALK.map((line) => line.text));
    expect(meeting.meeting.messages[1]).toMatchObject({ marks: ['important'], comment: 'Check the invoice bugs' });
    expect(meeting.summaries.summaries.map((s) => s.promptKey)).toEqual(['summary']);
    const markdown = entries.get(names[3]!)!;
    expect(markdown).toContain(TALK[0]!.text);
    expect(markdown).toContain('### Summary');
    expect([...entries.values()].join('\n')).not.toContain('another account');
  });

  it('opens encrypted meetings as the app shows them', async () => {
    const token = await app.signIn('sealed@example.com');
    await makePremium(app, 'sealed@example.com');
    const { meetingKey } = await seedMeeting(app, token, 'sealed', [{ speaker: 'Ana', text: 'A secret line, encrypted at rest.' }]);
    expect((await app.rest('PUT', `/v1/p/meeting/encrypt/${meetingKey}`, { token })).status).toBe(200);
    const stored = await app.deps.db.message.findFirstOrThrow({ where: { meetingId: meetingKey } });
    expect(stored.encrypted).toBe(true);
    const entries = await unzip((await download(app, token)).body);
    const json = [...entries].find(([name]) => name.startsWith('meetings/') && name.endsWith('.json'))![1];
    expect(meetingExportSchema.parse(JSON.parse(json)).meeting.messages[0]!.text).toBe('A secret line, encrypted at rest.');
  });

  it('is refused without a session, to extension tokens, and with parameters', async () => {
    expect((await download(app, undefined)).response.status).toBe(401);
    const token = await app.signIn('refused@example.com');
    const extension = await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token });
    expect((await download(app, extension.body.token)).response.status).toBe(403);
    expect((await download(app, token, '?format=csv')).response.status).toBe(400);
  });
});

/** Rows that name the user, in every table that has a user column or hangs off one. */
async function rowsOf(app: TestApp, userId: string): Promise<Record<string, number>> {
  const [counts] = await app.deps.db.$queryRaw<Record<string, number>[]>`
    SELECT
      (SELECT count(*)::int FROM "User" WHERE id = ${userId}) AS "user",
      (SELECT count(*)::int FROM "Meeting" WHERE "userId" = ${userId}) AS meetings,
      (SELECT count(*)::int FROM "Message" m WHERE m."meetingId" IN (SELECT id FROM "Meeting" WHERE "userId" = ${userId})) AS messages,
      (SELECT count(*)::int FROM "Summary" s WHERE s."meetingId" IN (SELECT id FROM "Meeting" WHERE "userId" = ${userId})) AS summaries,
      (SELECT count(*)::int FROM "Recap" WHERE "userId" = ${userId}) AS recaps,
      (SELECT count(*)::int FROM "RecapRecipient" WHERE "userId" = ${userId}) AS "recapRecipients",
      (SELECT count(*)::int FROM "Webhook" WHERE "userId" = ${userId}) AS webhooks,
      (SELECT count(*)::int FROM "Session" WHERE "userId" = ${userId}) AS sessions,
      (SELECT count(*)::int FROM "ExtensionToken" WHERE "userId" = ${userId}) AS "extensionTokens",
      (SELECT count(*)::int FROM "PersonalAccessToken" WHERE "userId" = ${userId}) AS "personalTokens",
      (SELECT count(*)::int FROM "Subscription" WHERE "userId" = ${userId}) AS subscriptions,
      (SELECT count(*)::int FROM "Referral" WHERE "referrerId" = ${userId} OR "acceptorId" = ${userId}) AS referrals,
      (SELECT count(*)::int FROM "DailyUsage" WHERE subject = ${userId}) AS "dailyUsage"`;
  return counts!;
}

const NONE = {
  user: 0,
  meetings: 0,
  messages: 0,
  summaries: 0,
  recaps: 0,
  recapRecipients: 0,
  webhooks: 0,
  sessions: 0,
  extensionTokens: 0,
  personalTokens: 0,
  subscriptions: 0,
  referrals: 0,
  dailyUsage: 0,
};

function deleteAccount(app: TestApp, token: string, confirm: string) {
  return app.rest<DeleteAccountOutput & { message?: string }>('POST', '/v1/account/delete', { token, body: { confirm } });
}

/** Meetings ended so their recap e-mails are written to the outbox folder; waits until they are. */
async function endWithRecap(app: TestApp, token: string, sessionId: string): Promise<void> {
  await seedMeeting(app, token, sessionId, TALK);
  expect((await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId, finishedAt: Date.UTC(2026, 10, 20, 16, 0) } })).status).toBe(200);
}

async function deletionWorld(overrides: Partial<Config> = {}, options: { embeddedDatabase?: boolean } = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mbox-delete-'));
  const stripe = await startStripeServer();
  const app = await startTestApp(
    { ...stripe.appConfig(), DATA_DIR: dataDir, JOB_POLL_SECONDS: 0.5, WEBHOOK_ALLOWED_HOSTS: ['127.0.0.1:9'], ...overrides },
    options,
  );
  stripe.setWebhookUrl(`${app.url}/v1/stripe/webhook`);
  const outboxFiles = async () => (await readdir(outboxDir(app.deps.config)).catch(() => [])).filter((name) => name.endsWith('.eml')).sort();
  return {
    app,
    stripe,
    outboxFiles,
    async waitForOutbox(count: number) {
      await expect.poll(outboxFiles, { timeout: 30_000, interval: 200 }).toHaveLength(count);
    },
    async subscribe(token: string) {
      const answer = await app.rest<HostedPageAnswer>('GET', '/v1/subscription?planID=pro', { token });
      if (!('url' in answer.body)) throw new Error(JSON.stringify(answer.body));
      return stripe.completeCheckout(answer.body.url.split('/').pop()!);
    },
    async close() {
      await app.close();
      await stripe.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe('Delete my account', () => {
  let world: Awaited<ReturnType<typeof deletionWorld>>;
  beforeAll(async () => {
    world = await deletionWorld();
  });
  afterAll(() => world.close());

  it('removes every row of the account, its outbox files and credentials, cancels its subscription; the e-mail signs up anew', { timeout: 120_000 }, async () => {
    const { app, stripe } = world;
    const token = await app.signIn('leaver@example.com');
    const secondBrowser = await app.signIn('leaver@example.com');
    const extension = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token })).body.token;
    const subscription = await world.subscribe(token);
    await stripe.settled();
    const leaver = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'leaver@example.com' } });
    expect(leaver.isPremium).toBe(true);

    // Someone who stays: referred by the leaver, with a meeting and a recap of their own.
    const stayer = await app.signIn('stayer@example.com');
    expect((await app.rest('GET', `/v1/referral/${leaver.referralCode}`, { token: stayer })).status).toBe(200);
    await endWithRecap(app, stayer, 'stayer-meeting');

    await endWithRecap(app, token, 'leaver-meeting');
    const { meetingKey } = await seedMeeting(app, token, 'leaver-open', [{ speaker: 'Ana', text: 'Sealed words of the leaver.' }]);
    expect((await app.rest('PUT', `/v1/p/meeting/encrypt/${meetingKey}`, { token })).status).toBe(200);
    expect((await app.rest('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'summary' } })).status).toBeLessThan(500);
    expect((await app.rest('POST', '/v1/webhooks', { token, body: { url: 'http://127.0.0.1:9/hook', events: ['meeting.finished'] } })).status).toBe(200);
    expect((await app.rest('POST', '/v1/access-tokens', { token, body: { name: 'script', scope: 'write' } })).status).toBe(200);
    // A recipient's confirmation e-mail is an outbox file of the account too.
    expect((await app.rest('PUT', '/v1/user-settings', { token, body: { whiteEmailList: ['friend@partner.org'] } })).status).toBe(200);
    await world.waitForOutbox(3);
    const filesBefore = await world.outboxFiles();
    const before = await rowsOf(app, leaver.id);
    for (const table of ['meetings', 'messages', 'recaps', 'recapRecipients', 'webhooks', 'sessions', 'extensionTokens', 'personalTokens', 'subscriptions', 'referrals'] as const) {
      expect(before[table], table).toBeGreaterThan(0);
    }
    expect((await app.deps.db.user.findUniqueOrThrow({ where: { id: leaver.id } })).wrappedDataKey).not.toBeNull();

    // The typed confirmation must be the account's address: anything else deletes nothing.
    const wrong = await deleteAccount(app, token, 'stayer@example.com');
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('confirm: type the e-mail address of this account (leaver@example.com)');
    expect(await rowsOf(app, leaver.id)).toEqual(before);

    const deleted = await deleteAccount(app, token, '  Leaver@Example.com ');
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, subscriptionsCancelled: 1, outboxFilesRemoved: 2 });

    expect(await rowsOf(app, leaver.id)).toEqual(NONE);
    expect(stripe.subscriptions.get(subscription.id)?.status).toBe('canceled');
    expect(stripe.requests.some((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscription.id}`)).toBe(true);
    // Stripe's customer.subscription.deleted event that follows finds no account and changes nothing.
    await stripe.settled();
    expect(stripe.deliveries.at(-1)).toMatchObject({ event: { type: 'customer.subscription.deleted' }, status: 200 });
    expect(await rowsOf(app, leaver.id)).toEqual(NONE);

    const files = await world.outboxFiles();
    expect(files).toHaveLength(1);
    expect(filesBefore).toContain(files[0]);

    for (const credential of [token, secondBrowser]) expect((await app.rest('GET', '/v1/user-settings', { token: credential })).status).toBe(401);
    const ingest = await app.rest('POST', '/v1/transcript/lines', {
      token: extension,
      body: { meeting: { sessionId: 'late', meetCode: 'abc-defg-hij', startedAt: Date.now() }, lines: [] },
    });
    expect(ingest.status).toBe(401);

    // The stayer keeps everything, the referral days included.
    const stayerRow = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'stayer@example.com' } });
    expect((await rowsOf(app, stayerRow.id)).meetings).toBe(1);
    expect(stayerRow.referralPremiumUntil).not.toBeNull();

    // The same address signs up again: a new account with nothing in it.
    const again = await app.signIn('leaver@example.com');
    const fresh = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'leaver@example.com' } });
    expect(fresh.id).not.toBe(leaver.id);
    expect(fresh.isPremium).toBe(false);
    expect((await app.rest<unknown[]>('GET', '/v1/meeting-list', { token: again })).body).toEqual([]);
  });

  it('deletes nothing when a subscription cannot be cancelled: Stripe down (503) or payments no longer configured (412)', { timeout: 60_000 }, async () => {
    const [down, unconfigured] = await Promise.all([
      startTestApp({ STRIPE_SECRET_KEY: 'sk_test_mbox', STRIPE_API_BASE: 'http://127.0.0.1:9' }),
      startTestApp(),
    ]);
    try {
      for (const [app, status, message] of [
        [down, 503, /^Your subscription could not be cancelled, so nothing was deleted\. The payment service cannot be reached/],
        [unconfigured, 412, /^Your subscription cannot be cancelled because payments are not configured on this server any more/],
      ] as const) {
        const token = await app.signIn('stuck@example.com');
        const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'stuck@example.com' } });
        await app.deps.db.subscription.create({
          data: { userId: user.id, planId: 'pro', externalId: 'sub_stuck', status: 'active', currentPeriodEnd: new Date(Date.now() + 86_400_000) },
        });
        const before = await rowsOf(app, user.id);
        const refused = await deleteAccount(app, token, 'stuck@example.com');
        expect(refused.status, JSON.stringify(refused.body)).toBe(status);
        expect(refused.body.message).toMatch(message);
        expect(await rowsOf(app, user.id)).toEqual(before);
      }
    } finally {
      await Promise.all([down.close(), unconfigured.close()]);
    }
  });

  it('a second request during the deletion resurrects nothing', { timeout: 60_000 }, async () => {
    const { app } = world;
    const token = await app.signIn('twice@example.com');
    const extension = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token })).body.token;
    await seedMeeting(app, token, 'twice', TALK);
    const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'twice@example.com' } });
    const startedAt = Date.now();
    const answers = await Promise.all([
      deleteAccount(app, token, 'twice@example.com'),
      deleteAccount(app, token, 'twice@example.com'),
      ...Array.from({ length: 4 }, (_, i) =>
        app.rest('POST', '/v1/transcript/lines', {
          token: extension,
          body: {
            meeting: { sessionId: `racing-${i}`, meetCode: 'abc-defg-hij', startedAt },
            lines: [{ captionId: 'c0', revision: 0, speaker: 'Ana', text: 'Still talking', spokenAt: startedAt, final: true }],
          },
        }),
      ),
      app.rest('PUT', '/v1/user-settings', { token, body: { sendNoSummary: true } }),
    ]);
    const [first, second, ...others] = answers;
    expect([first!.status, second!.status]).toEqual([200, 200]);
    others.forEach((answer, i) => expect(answer.status, `${i}: ${JSON.stringify(answer.body)}`).toBeLessThan(500));
    expect(await rowsOf(app, user.id)).toEqual(NONE);
    expect(await app.deps.db.user.count({ where: { email: 'twice@example.com' } })).toBe(0);
  });
});

describe('Delete my account on the embedded database', () => {
  let world: Awaited<ReturnType<typeof deletionWorld>>;
  beforeAll(async () => {
    world = await deletionWorld({}, { embeddedDatabase: true });
  });
  afterAll(() => world.close());

  it('removes the account and its outbox file in one transaction, as on PostgreSQL', { timeout: 120_000 }, async () => {
    const { app } = world;
    const token = await app.signIn('embedded@example.com');
    await world.subscribe(token);
    await endWithRecap(app, token, 'embedded-meeting');
    await world.waitForOutbox(1);
    const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'embedded@example.com' } });
    const deleted = await deleteAccount(app, token, 'embedded@example.com');
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, subscriptionsCancelled: 1, outboxFilesRemoved: 1 });
    expect(await rowsOf(app, user.id)).toEqual(NONE);
    expect(await world.outboxFiles()).toEqual([]);
  });
});
