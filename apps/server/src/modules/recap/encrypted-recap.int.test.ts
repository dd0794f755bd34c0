import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapDataKey } from '../../crypto/encryption.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium } from '../../test/fixtures.js';
import { end, fast, ingest, PUBLIC_URL, settled, TALK, withSmtpApp } from './test-meetings.js';

/** Words of the transcript that its summary quotes; never in the meeting's title (which stays in clear). */
const SPOKEN = /invoice|export bugs|Carla|help centre/i;

async function encrypt(app: TestApp, token: string, meetingId: string) {
  const { status, body } = await app.rest('PUT', `/v1/p/meeting/encrypt/${meetingId}`, { token });
  expect(status, JSON.stringify(body)).toBe(200);
}

/** The recap row as the database holds it (what a dump or backup would hold). */
async function rawRecap(app: TestApp, meetingId: string) {
  const [row] = await app.deps.db.$queryRaw<{ html: string; text: string; encrypted: boolean; subject: string }[]>`
    SELECT html, text, encrypted, subject FROM "Recap" WHERE "meetingId" = ${meetingId}`;
  return row!;
}

describe('recaps of encrypted meetings, over SMTP', () => {
  const env = withSmtpApp({ RECAP_RETRY_DELAY_SECONDS: 1 });

  it('stores the recap sealed (enc1:), sends it readable, and shows it to its owner only', { timeout: 90_000 }, async () => {
    await env.app.signIn('secret@example.com');
    await makePremium(env.app, 'secret@example.com');
    const token = await env.app.signIn('secret@example.com');
    const meetingId = await ingest(env.app, token, 's-sealed', TALK);
    await encrypt(env.app, token, meetingId);
    await end(env.app, token, 's-sealed');
    const recap = await settled(env.app, token, meetingId);
    expect(recap.status).toBe('sent');

    const row = await rawRecap(env.app, meetingId);
    expect(row.encrypted).toBe(true);
    expect(row.html).toMatch(/^enc1:[A-Za-z0-9+/=]+$/);
    expect(row.text).toMatch(/^enc1:[A-Za-z0-9+/=]+$/);
    // The summary stored beside it is sealed as before.
    const summaries = await env.app.deps.db.$queryRaw<{ text: string }[]>`SELECT text FROM "Summary" WHERE "meetingId" = ${meetingId}`;
    expect(summaries.length).toBeGreaterThan(0);
    for (const summary of summaries) expect(summary.text).toMatch(/^enc1:/);

    // The recipient reads it in clear: that is what it is for.
    const [mail] = env.smtp.received.filter((m) => m.recipients.includes('secret@example.com'));
    expect(mail!.parsed.text).toMatch(SPOKEN);
    // The owner's Outbox view opens it; another user's is a 404.
    const detail = await env.app.trpc(token).recap.get.query({ recapId: recap.id });
    expect(detail.text).toMatch(SPOKEN);
    expect(detail.html).toContain('Billing launch sync');
    const stranger = await env.app.signIn('stranger@example.com');
    expect((await env.app.rest('GET', `/v1/recaps/${recap.id}`, { token: stranger })).status).toBe(404);
  });

  it('a sealed recap that no longer opens (the key changed) fails visibly instead of retrying', { timeout: 90_000 }, async () => {
    await env.app.signIn('rekeyed@example.com');
    await makePremium(env.app, 'rekeyed@example.com');
    const token = await env.app.signIn('rekeyed@example.com');
    const meetingId = await ingest(env.app, token, 's-rekeyed', TALK);
    await encrypt(env.app, token, meetingId);
    // The first send is answered "try later": the recap waits, composed and sealed, for its retry.
    env.smtp.failNext('4xx');
    await end(env.app, token, 's-rekeyed');
    await expect.poll(async () => (await rawRecap(env.app, meetingId)).encrypted, { timeout: 30_000 }).toBe(true);
    const user = await env.app.deps.db.user.findUniqueOrThrow({ where: { email: 'rekeyed@example.com' } });
    await env.app.deps.db.user.update({ where: { id: user.id }, data: { wrappedDataKey: wrapDataKey(env.app.deps.secrets.masterKey, randomBytes(32), user.id) } });
    const recap = await settled(env.app, token, meetingId);
    expect(recap).toMatchObject({ status: 'failed', error: 'The recap cannot be decrypted with this server key' });
    expect(env.mailsTo('rekeyed@example.com')).toHaveLength(0);
  });

  it('encrypting a meeting after its recap was sent seals the stored recap', { timeout: 90_000 }, async () => {
    await env.app.signIn('later@example.com');
    await makePremium(env.app, 'later@example.com');
    const token = await env.app.signIn('later@example.com');
    const meetingId = await ingest(env.app, token, 's-later', TALK);
    await end(env.app, token, 's-later');
    const recap = await settled(env.app, token, meetingId);
    const before = await rawRecap(env.app, meetingId);
    expect(before.encrypted).toBe(false);
    expect(before.text).toMatch(SPOKEN);

    await encrypt(env.app, token, meetingId);
    const after = await rawRecap(env.app, meetingId);
    expect(after.encrypted).toBe(true);
    expect(after.html).toMatch(/^enc1:/);
    expect(after.text).toMatch(/^enc1:/);
    expect(JSON.stringify(after)).not.toMatch(SPOKEN);
    expect((await env.app.trpc(token).recap.get.query({ recapId: recap.id })).text).toBe(before.text);
  });
});

describe('recaps of encrypted meetings, in the outbox folder', () => {
  let dataDir = '';
  let app: TestApp;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mbox-sealed-outbox-'));
    app = await startTestApp({ ...fast, DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await app?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const outboxFiles = async () => (await readdir(path.join(dataDir, 'outbox')).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
  const fileOf = async (messageId: string) => {
    const name = (await outboxFiles()).find((f) => f.startsWith(messageId.replace(/[^\w.-]/g, '_')));
    return name ? readFile(path.join(dataDir, 'outbox', name), 'utf8') : null;
  };

  it('keeps only the headers and a pointer to the Outbox page in the .eml of an encrypted meeting', { timeout: 90_000 }, async () => {
    await app.signIn('local@example.com');
    await makePremium(app, 'local@example.com');
    const token = await app.signIn('local@example.com');
    const meetingId = await ingest(app, token, 'o-sealed', TALK);
    await encrypt(app, token, meetingId);
    await end(app, token, 'o-sealed');
    const recap = await settled(app, token, meetingId);
    expect(recap.status).toBe('sent');
    const detail = await app.trpc(token).recap.get.query({ recapId: recap.id });
    expect(detail.text).toMatch(SPOKEN);

    const file = await fileOf(detail.messageId);
    expect(file).not.toBeNull();
    expect(file).toContain(`Message-ID: <${detail.messageId}>`);
    expect(file).toContain('Subject: Recap: Billing launch sync');
    // Quoted-printable or base64 would hide words from a plain search: decode what the file says.
    const { simpleParser } = await import('mailparser');
    const parsed = await simpleParser(file!);
    expect(parsed.text).toContain('its content is stored encrypted and not kept in this file');
    expect(parsed.text).toContain(`${PUBLIC_URL}/outbox`);
    expect(`${parsed.text}${String(parsed.html)}${file}`).not.toMatch(SPOKEN);
  });

  it('encrypting a meeting later removes the outbox copy in clear; the Outbox view still shows the recap', { timeout: 90_000 }, async () => {
    await app.signIn('local-later@example.com');
    await makePremium(app, 'local-later@example.com');
    const token = await app.signIn('local-later@example.com');
    const meetingId = await ingest(app, token, 'o-later', TALK);
    await end(app, token, 'o-later');
    const recap = await settled(app, token, meetingId);
    const { messageId, text } = await app.trpc(token).recap.get.query({ recapId: recap.id });
    const { simpleParser } = await import('mailparser');
    expect((await simpleParser((await fileOf(messageId))!)).text).toMatch(SPOKEN);

    await encrypt(app, token, meetingId);
    expect(await fileOf(messageId)).toBeNull();
    for (const name of await outboxFiles()) {
      const parsed = await simpleParser(await readFile(path.join(dataDir, 'outbox', name), 'utf8'));
      expect(`${parsed.text}${String(parsed.html)}`).not.toMatch(SPOKEN);
    }
    const after = await app.trpc(token).recap.get.query({ recapId: recap.id });
    expect(after.text).toBe(text);
    expect(after.status).toBe('sent');
  });
});
