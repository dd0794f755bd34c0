import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimumRetrySpanSeconds, queuePolicies } from '../../jobs/queues.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { startDroppingServer, startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { end, fast, ingest, PUBLIC_URL, recapOf, settled, startedAt, TALK, updateSettings } from './test-meetings.js';

describe('recap e-mails over SMTP', () => {
  let smtp: TestSmtpServer;
  let app: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({ ...fast, SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  const mailsTo = (address: string) => smtp.received.filter((m) => m.recipients.includes(address));

  it('sends the summary once as multipart HTML and text, with the meeting link and one-click unsubscribe headers', { timeout: 60_000 }, async () => {
    const token = await app.signIn('ana@example.com');
    const meetingId = await ingest(app, token, 's-summary', TALK);
    await end(app, token, 's-summary');
    const recap = await settled(app, token, meetingId);
    expect(recap).toMatchObject({ status: 'sent', kind: 'summary', recipients: ['ana@example.com'], error: '', attempts: 1 });

    const [mail, ...more] = mailsTo('ana@example.com');
    expect(more).toHaveLength(0);
    const detail = await app.trpc(token).recap.get.query({ recapId: recap.id });
    expect(mail!.parsed.messageId).toBe(`<${detail.messageId}>`);
    expect(mail!.parsed.subject).toBe(recap.subject);
    expect(recap.subject).toContain('Billing launch sync');
    expect(mail!.raw.toString()).toMatch(/Content-Type: multipart\/alternative/i);
    const html = mail!.parsed.html as string;
    const text = mail!.parsed.text!;
    for (const body of [html, text]) {
      expect(body).toContain('Billing launch sync');
      expect(body).toContain('Ana, Ben');
      expect(body).toContain('30 minutes');
      expect(body).toContain(`${PUBLIC_URL}/${meetingId}`);
      expect(body).toContain(`${PUBLIC_URL}/unsubscribe?token=`);
    }
    // The summary itself, from the configured engine (offline here).
    expect(text.toLowerCase()).toMatch(/invoice|billing|launch/);
    expect(html).not.toMatch(/<script/i);
    expect(detail.html).toContain(`${PUBLIC_URL}/${meetingId}`);
    const headers = mail!.raw.toString().split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(headers).toMatch(new RegExp(`^List-Unsubscribe: <${PUBLIC_URL}/email/unsubscribe\\?token=[\\w.-]+>$`, 'm'));
    // The summary is stored like one asked for in the app.
    const stored = await app.deps.db.summary.count({ where: { meetingId, promptKey: 'summary' } });
    expect(stored).toBe(1);
  });

  it('shows the summary\'s citations as the times of their lines, in the owner\'s zone, and its unsupported points', { timeout: 60_000 }, async () => {
    const token = await app.signIn('cited@example.com');
    await updateSettings(app, token, { timezone: 'Europe/Berlin' });
    const meetingId = await ingest(app, token, 's-cited', TALK);
    const lines = await app.deps.db.message.findMany({ where: { meetingId }, orderBy: { spokenAt: 'asc' } });
    const citation = (n: number, i: number) => ({ n, messageId: lines[i]!.id, spokenAt: lines[i]!.spokenAt.getTime(), speaker: lines[i]!.user });
    // The stored summary covers the whole meeting, so the recap sends it rather than a new one.
    await app.deps.db.summary.create({
      data: {
        meetingId,
        promptKey: 'summary',
        title: 'Summary',
        text:
          '<ul><li>Launch next Tuesday<sup class="cite" data-cite="1,2">[1, 2]</sup></li>' +
          '<li>Dana pays 40 euros<sup class="cite" data-cite="2">[2]</sup><small class="unsupported" data-missing="Dana; 40 euros">not found in the transcript</small></li></ul>',
        citations: [citation(1, 2), citation(2, 3)],
      },
    });
    await end(app, token, 's-cited');
    expect(await settled(app, token, meetingId)).toMatchObject({ status: 'sent', kind: 'summary' });
    const [mail] = mailsTo('cited@example.com');
    // Lines 3 and 4 were spoken at 15:02 and 15:03 UTC: 04:02 and 04:03 PM in Berlin.
    expect(mail!.parsed.text).toContain('- Launch next Tuesday [04:02 PM, 04:03 PM]');
    expect(mail!.parsed.text).toContain('- Dana pays 40 euros [04:03 PM] (not found in the transcript)');
    const html = mail!.parsed.html as string;
    expect(html).toContain('<li>Launch next Tuesday [04:02 PM, 04:03 PM]</li>');
    expect(html).toContain('<li>Dana pays 40 euros [04:03 PM]<em> (not found in the transcript)</em></li>');
    expect(html).not.toContain('data-cite');
  });

  it('a meeting reopened by new lines and ended again does not get a second recap', { timeout: 60_000 }, async () => {
    const token = await app.signIn('reopen@example.com');
    const meetingId = await ingest(app, token, 's-reopen', TALK);
    await end(app, token, 's-reopen');
    expect((await settled(app, token, meetingId)).status).toBe('sent');
    await ingest(app, token, 's-reopen', [['Ana', 'One more thing about the invoices.']], 10);
    const reopened = await app.deps.db.meeting.findUniqueOrThrow({ where: { id: meetingId } });
    expect(reopened.endedAt).toBeNull();
    expect(reopened.lastLineAt).not.toBeNull();
    await end(app, token, 's-reopen', startedAt + 40 * 60_000);
    expect((await app.deps.db.meeting.findUniqueOrThrow({ where: { id: meetingId } })).endedAt).not.toBeNull();
    // Give a wrongly queued second job time to run.
    await new Promise((r) => setTimeout(r, 2500));
    expect(mailsTo('reopen@example.com')).toHaveLength(1);
    expect(await app.deps.db.recap.count({ where: { meetingId } })).toBe(1);
  });

  it('sendSummary off sends nothing; the recap is listed as skipped', { timeout: 60_000 }, async () => {
    const token = await app.signIn('off@example.com');
    await updateSettings(app, token, { sendSummary: false, sendNoSummary: true });
    const meetingId = await ingest(app, token, 's-off', TALK);
    await end(app, token, 's-off');
    const recap = await settled(app, token, meetingId);
    expect(recap).toMatchObject({ status: 'skipped', kind: 'summary' });
    expect(recap.skippedReason).toContain('off');
    expect(mailsTo('off@example.com')).toHaveLength(0);
  });

  it('a meeting too small to summarise: the short note with sendNoSummary, nothing without it', { timeout: 60_000 }, async () => {
    const token = await app.signIn('short@example.com');
    await updateSettings(app, token, { sendNoSummary: true });
    const noted = await ingest(app, token, 's-short-1', TALK.slice(0, 2));
    await end(app, token, 's-short-1');
    expect(await settled(app, token, noted)).toMatchObject({ status: 'sent', kind: 'no-summary' });
    const [mail] = mailsTo('short@example.com');
    expect(mail!.parsed.subject).toContain('No summary');
    expect(mail!.parsed.text).toContain('too short to summarise');
    expect(mail!.parsed.html).toContain('too short to summarise');

    await updateSettings(app, token, { sendNoSummary: false });
    const silent = await ingest(app, token, 's-short-2', TALK.slice(0, 2));
    await end(app, token, 's-short-2');
    expect(await settled(app, token, silent)).toMatchObject({ status: 'skipped', kind: 'no-summary' });
    expect(mailsTo('short@example.com')).toHaveLength(1);
  });

  it('redirectEmails replaces the owner, whiteEmailList adds recipients; invalid entries are refused naming them', { timeout: 60_000 }, async () => {
    const token = await app.signIn('owner@example.com');
    const refused = await app.rest<{ message: string }>('PUT', '/v1/user-settings', {
      token,
      body: { whiteEmailList: ['ok@example.com', 'not-an-address'] },
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('not-an-address');
    const badRedirect = await app.rest('PUT', '/v1/user-settings', { token, body: { redirectEmails: 'boss@example.com, oops@' } });
    expect(badRedirect.status).toBe(400);
    expect(JSON.stringify(badRedirect.body)).toContain('oops@');

    await updateSettings(app, token, { redirectEmails: 'assistant@example.com', whiteEmailList: ['team@example.org', 'Assistant@example.com'] });
    // Both agree by the links they were e-mailed (docs/recaps.md, "Recipients").
    for (const address of ['assistant@example.com', 'team@example.org']) {
      await expect.poll(() => mailsTo(address).length, { timeout: 15_000 }).toBe(1);
      const token = new URL(/(http\S+\/recipient\?token=\S+)/.exec(mailsTo(address)[0]!.parsed.text!)![1]!).searchParams.get('token');
      expect((await app.rest('POST', '/v1/recap-recipients/confirm', { body: { token } })).status).toBe(200);
    }
    smtp.received.length = 0;
    const meetingId = await ingest(app, token, 's-redirect', TALK);
    await end(app, token, 's-redirect');
    const recap = await settled(app, token, meetingId);
    expect(recap.recipients).toEqual(['assistant@example.com', 'team@example.org']);
    const mails = smtp.received.filter((m) => m.recipients.includes('assistant@example.com'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.recipients.sort()).toEqual(['assistant@example.com', 'team@example.org']);
    expect(mailsTo('owner@example.com')).toHaveLength(0);
  });

  it('the unsubscribe link turns recap e-mails off without sign-in (page call and one-click POST)', { timeout: 60_000 }, async () => {
    const token = await app.signIn('unsub@example.com');
    const meetingId = await ingest(app, token, 's-unsub', TALK);
    await end(app, token, 's-unsub');
    await settled(app, token, meetingId);
    const [mail] = mailsTo('unsub@example.com');
    const link = new URL(/Unsubscribe: (\S+)/.exec(mail!.parsed.text!)![1]!);
    expect(link.pathname).toBe('/unsubscribe');
    const linkToken = link.searchParams.get('token')!;

    const state = await app.rest<{ email: string; sendSummary: boolean }>('GET', `/v1/unsubscribe?token=${encodeURIComponent(linkToken)}`);
    expect(state).toEqual({ status: 200, body: { email: 'u****@example.com', sendSummary: true } });
    const done = await app.rest('POST', '/v1/unsubscribe', { body: { token: linkToken } });
    expect(done).toEqual({ status: 200, body: { email: 'u****@example.com', sendSummary: false } });
    expect((await app.trpc(token).settings.get.query()).sendSummary).toBe(false);

    // One-click (RFC 8058) as a mail program does it, on the header's URL.
    await updateSettings(app, token, { sendSummary: true });
    const header = /^List-Unsubscribe: <([^>]+)>/m.exec(mail!.raw.toString().replace(/\r?\n[ \t]+/g, ' '))![1]!.replace(PUBLIC_URL, app.url);
    const oneClick = await fetch(header, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect((await app.trpc(token).settings.get.query()).sendSummary).toBe(false);

    const forged = await app.rest<{ message: string }>('POST', '/v1/unsubscribe', { body: { token: `${linkToken.slice(0, -4)}AAAA` } });
    expect(forged.status).toBe(400);
    expect(forged.body.message).toContain('not valid');
    const forgedOneClick = await fetch(`${app.url}/email/unsubscribe?token=nope`, { method: 'POST' });
    expect(forgedOneClick.status).toBe(400);
    // A session token is not an unsubscribe token.
    expect((await app.rest('POST', '/v1/unsubscribe', { body: { token } })).status).toBe(400);

    const after = await ingest(app, token, 's-unsub-2', TALK);
    await end(app, token, 's-unsub-2');
    expect((await settled(app, token, after)).status).toBe('skipped');
    expect(mailsTo('unsub@example.com')).toHaveLength(1);
  });

  it('recaps are visible only to their owner', { timeout: 60_000 }, async () => {
    const owner = await app.signIn('private@example.com');
    const meetingId = await ingest(app, owner, 's-private', TALK);
    await end(app, owner, 's-private');
    const recap = await settled(app, owner, meetingId);
    const other = await app.signIn('someone-else@example.com');
    expect((await app.rest('GET', `/v1/recaps/${recap.id}`, { token: other })).status).toBe(404);
    expect((await app.rest<{ recaps: unknown[] }>('GET', '/v1/recaps', { token: other })).body.recaps).toEqual([]);
    expect((await app.rest('GET', '/v1/recaps')).status).toBe(401);
    const mine = await app.rest<{ html: string; transport: string }>('GET', `/v1/recaps/${recap.id}`, { token: owner });
    expect(mine.status).toBe(200);
    expect(mine.body.html).toContain('Billing launch sync');
  });
});

describe('SMTP failures', () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp?.close());

  it('5xx fails at once, without a retry, and the failure is visible', { timeout: 60_000 }, async () => {
    const app = await startTestApp({ ...fast, SMTP_URL: smtp.url });
    try {
      const token = await app.signIn('refused@example.com');
      smtp.failNext('5xx');
      const meetingId = await ingest(app, token, 's-5xx', TALK);
      await end(app, token, 's-5xx');
      const recap = await settled(app, token, meetingId);
      expect(recap).toMatchObject({ status: 'failed', attempts: 1 });
      expect(recap.error).toContain('550');
      const job = await app.deps.db.$queryRaw<{ state: string; retry_count: number }[]>`
        SELECT state::text, retry_count FROM pgboss.job WHERE name = 'recap-send' AND data->>'recapId' = ${recap.id}`;
      expect(job).toEqual([{ state: 'completed', retry_count: 0 }]);
    } finally {
      await app.close();
    }
  });

  it('4xx is retried with backoff for over 10 minutes (queue state), and a retry sends it', { timeout: 90_000 }, async () => {
    // The production retry policy, read back from the job the queue scheduled.
    const slow = await startTestApp({ ...fast, SMTP_URL: smtp.url });
    try {
      const token = await slow.signIn('busy@example.com');
      smtp.failNext('4xx');
      const meetingId = await ingest(slow, token, 's-4xx', TALK);
      await end(slow, token, 's-4xx');
      await expect.poll(async () => (await recapOf(slow, token, meetingId))?.error, { timeout: 20_000 }).toContain('451');
      const recap = (await recapOf(slow, token, meetingId))!;
      expect(recap).toMatchObject({ status: 'sending', attempts: 1 });
      const [row] = await slow.deps.db.$queryRaw<{ id: string }[]>`
        SELECT id::text FROM pgboss.job WHERE name = 'recap-send' AND data->>'recapId' = ${recap.id}`;
      await expect.poll(async () => (await slow.deps.jobs.getJob('recap-send', row!.id))?.state, { timeout: 10_000 }).toBe('retry');
      const job = (await slow.deps.jobs.getJob('recap-send', row!.id))!;
      expect(job).toMatchObject({ retryLimit: 6, retryDelay: 15, retryBackoff: true, retryCount: 0 });
      // First wait is retryDelay × [1, 2): at least 15 s from now.
      expect(job.startAfter.getTime() - Date.now()).toBeGreaterThan(13_000);
      expect(minimumRetrySpanSeconds(queuePolicies(slow.deps.config)['recap-send'])).toBeGreaterThanOrEqual(600);
    } finally {
      await slow.close();
    }

    const quick = await startTestApp({ ...fast, SMTP_URL: smtp.url, RECAP_RETRY_DELAY_SECONDS: 1 });
    try {
      const token = await quick.signIn('busy-then-ok@example.com');
      smtp.failNext('4xx', '4xx');
      const meetingId = await ingest(quick, token, 's-4xx-ok', TALK);
      await end(quick, token, 's-4xx-ok');
      const recap = await settled(quick, token, meetingId);
      expect(recap).toMatchObject({ status: 'sent', attempts: 3, error: '' });
      expect(smtp.received.filter((m) => m.recipients.includes('busy-then-ok@example.com'))).toHaveLength(1);
    } finally {
      await quick.close();
    }
  });

  it('a dropped connection is temporary: recorded and retried', { timeout: 60_000 }, async () => {
    const dropping = await startDroppingServer();
    const app = await startTestApp({ ...fast, SMTP_URL: dropping.url });
    try {
      const token = await app.signIn('dropped@example.com');
      const meetingId = await ingest(app, token, 's-drop', TALK);
      await end(app, token, 's-drop');
      await expect.poll(async () => (await recapOf(app, token, meetingId))?.error, { timeout: 20_000 }).toContain('Could not reach');
      const recap = (await recapOf(app, token, meetingId))!;
      expect(recap.status).toBe('sending');
      const [job] = await app.deps.db.$queryRaw<{ state: string }[]>`
        SELECT state::text FROM pgboss.job WHERE name = 'recap-send' AND data->>'recapId' = ${recap.id}`;
      expect(job!.state).toMatch(/^(retry|active)$/);
    } finally {
      await app.close();
      await dropping.close();
    }
  });
});

describe('without SMTP_URL', () => {
  let dataDir = '';
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('writes the message to DATA_DIR/outbox and lists it; the idle sweep ends a quiet meeting', { timeout: 60_000 }, async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mbox-outbox-'));
    const app = await startTestApp({ ...fast, DATA_DIR: dataDir, MEETING_IDLE_MINUTES: 0.03, MEETING_SWEEP_SECONDS: 1 });
    try {
      const token = await app.signIn('local@example.com');
      // No end call: the laptop was closed. The sweep ends it after ~2 s of quiet.
      const meetingId = await ingest(app, token, 's-idle', TALK);
      const recap = await settled(app, token, meetingId);
      expect(recap.status).toBe('sent');
      const meeting = await app.deps.db.meeting.findUniqueOrThrow({ where: { id: meetingId } });
      expect(meeting.endedAt).not.toBeNull();
      expect(meeting.finishedAt).toEqual(meeting.lastLineAt);

      const { transport } = await app.trpc(token).recap.list.query({});
      expect(transport).toBe('outbox');
      const files = await readdir(path.join(dataDir, 'outbox'));
      expect(files).toHaveLength(1);
      const parsed = await simpleParser(await readFile(path.join(dataDir, 'outbox', files[0]!)));
      const detail = await app.trpc(token).recap.get.query({ recapId: recap.id });
      expect(parsed.messageId).toBe(`<${detail.messageId}>`);
      expect(parsed.subject).toBe(detail.subject);
      expect(parsed.html).toContain('Billing launch sync');
      expect(parsed.text).toContain('Billing launch sync');
    } finally {
      await app.close();
    }
  });
});
