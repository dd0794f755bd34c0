import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app.js';
import { signRecipientToken } from './recipients.js';
import { end, ingest, PUBLIC_URL, settled, TALK, updateSettings, withSmtpApp } from './test-meetings.js';

/** Too short to summarise: with sendNoSummary on, the recap is the short note, composed at once. */
async function shortMeeting(app: TestApp, token: string, sessionId: string) {
  const meetingId = await ingest(app, token, sessionId, TALK.slice(0, 2));
  await end(app, token, sessionId);
  return meetingId;
}

describe('recap recipients other than the account confirm first', () => {
  const env = withSmtpApp();

  const { mailsTo } = env;
  const confirmationLink = async (address: string) => {
    await expect.poll(() => mailsTo(address).length, { timeout: 15_000, interval: 200 }).toBe(1);
    const [mail] = mailsTo(address);
    const link = /(http\S+\/recipient\?token=\S+)/.exec(mail!.parsed.text!)?.[1];
    expect(link, mail!.parsed.text).toBeDefined();
    return { mail: mail!, token: new URL(link!).searchParams.get('token')! };
  };

  it('e-mails a signed link; nothing else reaches the address until it agrees; then recaps do; declining stops them', { timeout: 90_000 }, async () => {
    const token = await env.app.signIn('owner@example.com');
    await updateSettings(env.app, token, { sendNoSummary: true, whiteEmailList: ['friend@example.org', 'Owner@example.com'] });

    const { mail, token: linkToken } = await confirmationLink('friend@example.org');
    expect(mail.parsed.subject).toBe('Do you want meeting recaps from owner@example.com?');
    expect(mail.parsed.text).toContain('You will receive nothing unless you agree');
    expect(mail.parsed.html).toContain(`${PUBLIC_URL}/recipient?token=`);
    // The account's own address needs no confirmation and gets none.
    expect(mailsTo('owner@example.com')).toHaveLength(0);
    expect(await env.app.trpc(token).recap.recipients.query()).toEqual({
      recipients: [{ email: 'friend@example.org', status: 'pending', confirmationSentAt: expect.any(Number), error: '' }],
      maxRecipients: 20,
      emailsPerDay: 50,
    });

    // Unconfirmed: the recap goes to the owner only, and the Outbox view says who was left out and why.
    const first = await settled(env.app, token, await shortMeeting(env.app, token, 's-1'));
    expect(first).toMatchObject({ status: 'sent', recipients: ['owner@example.com'] });
    expect(first.refused).toBe('Not sent to friend@example.org: it has not confirmed (yet) to receive these e-mails');
    expect(mailsTo('friend@example.org')).toHaveLength(1);

    // The page of the link works without signing in and says who asks.
    const consent = await env.app.rest('GET', `/v1/recap-recipients/consent?token=${encodeURIComponent(linkToken)}`);
    expect(consent).toEqual({ status: 200, body: { email: 'friend@example.org', ownerEmail: 'owner@example.com', status: 'pending', expired: false } });
    const agreed = await env.app.rest('POST', '/v1/recap-recipients/confirm', { body: { token: linkToken } });
    expect(agreed).toMatchObject({ status: 200, body: { status: 'confirmed' } });
    expect((await env.app.trpc(token).recap.recipients.query()).recipients[0]!.status).toBe('confirmed');

    const second = await settled(env.app, token, await shortMeeting(env.app, token, 's-2'));
    expect(second).toMatchObject({ status: 'sent', refused: '' });
    expect(second.recipients.map((r) => r.toLowerCase()).sort()).toEqual(['friend@example.org', 'owner@example.com']);
    expect(mailsTo('friend@example.org')).toHaveLength(2);

    // The same link stops them later.
    const declined = await env.app.rest('POST', '/v1/recap-recipients/decline', { body: { token: linkToken } });
    expect(declined).toMatchObject({ status: 200, body: { status: 'declined' } });
    const third = await settled(env.app, token, await shortMeeting(env.app, token, 's-3'));
    expect(third.recipients).toEqual(['owner@example.com']);
    expect(mailsTo('friend@example.org')).toHaveLength(2);

    // Saving the address again never asks the person twice.
    await updateSettings(env.app, token, { whiteEmailList: [] });
    await updateSettings(env.app, token, { whiteEmailList: ['friend@example.org'] });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mailsTo('friend@example.org')).toHaveLength(2);
    expect((await env.app.trpc(token).recap.recipients.query()).recipients).toMatchObject([{ email: 'friend@example.org', status: 'declined' }]);
  });

  it('a redirect to a stranger sends nothing to anyone until it is confirmed', { timeout: 60_000 }, async () => {
    const token = await env.app.signIn('redirector@example.com');
    await updateSettings(env.app, token, { sendNoSummary: true, redirectEmails: 'stranger@example.net' });
    await confirmationLink('stranger@example.net');
    const recap = await settled(env.app, token, await shortMeeting(env.app, token, 's-redirect'));
    expect(recap).toMatchObject({ status: 'skipped', recipients: [] });
    expect(recap.skippedReason).toBe('Not sent to stranger@example.net: it has not confirmed (yet) to receive these e-mails');
    expect(mailsTo('stranger@example.net')).toHaveLength(1);
    expect(mailsTo('redirector@example.com')).toHaveLength(0);
  });

  it('an expired link can decline but not agree; a forged or altered one does nothing', async () => {
    const token = await env.app.signIn('expiry@example.com');
    await updateSettings(env.app, token, { whiteEmailList: ['late@example.org'] });
    const row = await env.app.deps.db.recapRecipient.findFirstOrThrow({ where: { email: 'late@example.org' } });
    const expired = signRecipientToken(env.app.deps.secrets, row.id, new Date(Date.now() - 1000));

    expect(await env.app.rest('GET', `/v1/recap-recipients/consent?token=${encodeURIComponent(expired)}`)).toMatchObject({ status: 200, body: { expired: true, status: 'pending' } });
    const confirm = await env.app.rest<{ message: string }>('POST', '/v1/recap-recipients/confirm', { body: { token: expired } });
    expect(confirm.status).toBe(400);
    expect(confirm.body.message).toContain('This confirmation link has expired');

    const valid = signRecipientToken(env.app.deps.secrets, row.id, new Date(Date.now() + 60_000));
    const altered = valid.replace(/\.(\d+)\./, (_m, exp: string) => `.${Number(exp) + 3600}.`);
    const forged = signRecipientToken({ ...env.app.deps.secrets, authSecret: new TextEncoder().encode('another-secret-another-secret-0123456789') }, row.id, new Date(Date.now() + 60_000));
    for (const bad of [altered, forged]) {
      const refused = await env.app.rest<{ message: string }>('POST', '/v1/recap-recipients/confirm', { body: { token: bad } });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('This confirmation link is not valid: open it from the e-mail again');
    }
    expect((await env.app.deps.db.recapRecipient.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('pending');

    expect(await env.app.rest('POST', '/v1/recap-recipients/decline', { body: { token: expired } })).toMatchObject({ status: 200, body: { status: 'declined' } });
  });

  it('an address stored before confirmations existed receives nothing and is asked at the next save', { timeout: 60_000 }, async () => {
    const token = await env.app.signIn('older@example.com');
    await env.app.deps.db.user.update({ where: { email: 'older@example.com' }, data: { whiteEmailList: ['old-friend@example.org'], sendNoSummary: true } });
    expect((await env.app.trpc(token).recap.recipients.query()).recipients).toEqual([
      { email: 'old-friend@example.org', status: 'pending', confirmationSentAt: null, error: 'No confirmation e-mail was sent yet: save the settings to send one.' },
    ]);
    const recap = await settled(env.app, token, await shortMeeting(env.app, token, 's-older'));
    expect(recap).toMatchObject({ status: 'sent', recipients: ['older@example.com'] });
    expect(mailsTo('old-friend@example.org')).toHaveLength(0);
    await updateSettings(env.app, token, { sendSummary: true });
    expect(mailsTo('old-friend@example.org')).toHaveLength(0);
    await updateSettings(env.app, token, { whiteEmailList: ['old-friend@example.org'] });
    await confirmationLink('old-friend@example.org');
  });

  it('refuses more than RECAP_RECIPIENTS_MAX (20) addresses, naming the limit', async () => {
    const token = await env.app.signIn('many@example.com');
    const list = Array.from({ length: 20 }, (_, i) => `r${i}@example.com`);
    const refused = await env.app.rest<{ message: string }>('PUT', '/v1/user-settings', { token, body: { whiteEmailList: list, redirectEmails: 'one-more@example.com' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('At most 20 recap recipients (redirectEmails and whiteEmailList together); 21 were given');
    expect(await env.app.deps.db.recapRecipient.count({ where: { user: { email: 'many@example.com' } } })).toBe(0);
    await updateSettings(env.app, token, { whiteEmailList: list, sendSummary: false });
  });
});

describe('the daily recap e-mail budget (RECAP_EMAILS_PER_DAY)', () => {
  const env = withSmtpApp({ RECAP_EMAILS_PER_DAY: 3 });

  it('confirmations and every address of a recap count; past the limit the recap is refused, visibly', { timeout: 90_000 }, async () => {
    const token = await env.app.signIn('budget@example.com');
    // 1: the confirmation e-mail.
    await updateSettings(env.app, token, { sendNoSummary: true, whiteEmailList: ['pal@example.org'] });
    await expect.poll(() => env.smtp.received.length, { timeout: 15_000 }).toBe(1);
    const row = await env.app.deps.db.recapRecipient.findFirstOrThrow({ where: { email: 'pal@example.org' } });
    const link = signRecipientToken(env.app.deps.secrets, row.id, new Date(Date.now() + 60_000));
    expect((await env.app.rest('POST', '/v1/recap-recipients/confirm', { body: { token: link } })).status).toBe(200);

    // 2 and 3: one recap to two addresses.
    const first = await settled(env.app, token, await shortMeeting(env.app, token, 'b-1'));
    expect(first).toMatchObject({ status: 'sent', refused: '' });
    expect(first.recipients).toHaveLength(2);
    // Nothing left today: the next recap goes nowhere and says why.
    const second = await settled(env.app, token, await shortMeeting(env.app, token, 'b-2'));
    expect(second).toMatchObject({ status: 'skipped', recipients: [] });
    expect(second.refused).toBe('Not sent to budget@example.com, pal@example.org: the daily limit of 3 recap e-mails of this account was reached');
    expect(second.skippedReason).toBe(second.refused);
    expect(env.smtp.received).toHaveLength(2);

    // A new address's confirmation waits too, with the reason shown in Settings.
    await updateSettings(env.app, token, { whiteEmailList: ['pal@example.org', 'late@example.org'] });
    await expect
      .poll(async () => (await env.app.trpc(token).recap.recipients.query()).recipients.find((r) => r.email === 'late@example.org')?.error, { timeout: 15_000 })
      .toContain('the daily limit of 3 e-mails of this account was reached');
    expect(env.smtp.received).toHaveLength(2);

    // Another account has its own budget.
    const other = await env.app.signIn('other@example.com');
    await updateSettings(env.app, other, { sendNoSummary: true });
    expect(await settled(env.app, other, await shortMeeting(env.app, other, 'b-3'))).toMatchObject({ status: 'sent', recipients: ['other@example.com'] });
  });
});
