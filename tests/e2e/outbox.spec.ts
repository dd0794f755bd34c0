import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecapDetail } from '@mbox/shared/recap';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { launchBrowser, openSignedIn, startWebApp, VIEWPORTS } from './support/browser.js';

/** Where the screenshots go (looked at by hand; not committed by this test). */
const SHOTS = process.env.OUTBOX_SHOTS_DIR ?? '/tmp/recap-shots';

const startedAt = Date.UTC(2026, 10, 20, 15, 0);
const TALK = [
  ['Ana', 'Welcome everyone, today we decide the launch date for the new billing page.'],
  ['Ben', 'The billing page is ready for review; QA found two bugs in the invoice export.'],
  ['Ana', 'Then we fix the invoice export bugs first and launch next Tuesday.'],
  ['Ben', 'Agreed. I will fix the export bugs by Friday and send the release notes.'],
  ['Ana', 'Great. Carla will announce the launch to customers on Tuesday morning.'],
];

describe('Outbox', () => {
  let app: TestApp;
  let browser: Browser;
  let dataDir = '';

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mbox-outbox-e2e-'));
    // No SMTP_URL: recaps go to DATA_DIR/outbox, as on a fresh `npm start`.
    app = await startWebApp({ DATA_DIR: dataDir, JOB_POLL_SECONDS: 0.5, PUBLIC_URL: 'https://mbox.example.org' });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('explains the empty outbox, then shows the recap of an ended meeting with its e-mail sandboxed', async () => {
    const { context, page, token } = await openSignedIn(browser, app, { email: 'outbox@example.com', path: '/outbox' });
    await page.getByRole('heading', { name: 'No recaps yet' }).waitFor();
    expect(await page.getByText(/appears here/).isVisible()).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'outbox-empty-1280.png'), fullPage: true });

    const lines = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
      token,
      body: {
        meeting: { sessionId: 'e2e-outbox', meetCode: 'abc-defg-hij', startedAt, title: 'Billing launch sync' },
        lines: TALK.map(([speaker, text], i) => ({ captionId: `c${i}`, revision: 0, speaker, text, spokenAt: startedAt + i * 60_000, final: true })),
      },
    });
    expect(lines.status).toBe(200);
    expect((await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId: 'e2e-outbox', finishedAt: startedAt + 25 * 60_000 } })).status).toBe(200);

    await page.reload();
    const row = page.getByTestId('recap-row').first();
    await expect.poll(async () => ((await row.count()) ? await row.textContent() : ''), { timeout: 30_000 }).toContain('Written to outbox');
    await page.reload();
    expect(await row.textContent()).toContain('Recap: Billing launch sync');
    expect(await row.textContent()).toContain('outbox@example.com');
    expect(await page.getByRole('note').textContent()).toContain('outbox folder');

    const frame = page.locator('iframe[title^="E-mail:"]');
    expect(await frame.getAttribute('sandbox')).toBe('');
    const mail = page.frameLocator('iframe[title^="E-mail:"]');
    await mail.getByRole('heading', { name: 'Billing launch sync' }).waitFor();
    expect(await mail.getByRole('link', { name: 'Open the meeting in Mbox' }).getAttribute('href')).toBe(`https://mbox.example.org/${lines.body.meetingKey}`);
    await page.screenshot({ path: path.join(SHOTS, 'outbox-1280.png'), fullPage: true });
    await page.setViewportSize(VIEWPORTS.phone);
    await page.screenshot({ path: path.join(SHOTS, 'outbox-390.png'), fullPage: true });
    await context.close();
  });

  it('says which addresses a recap was not sent to and why: a stranger who has not confirmed', async () => {
    const { context, page, token } = await openSignedIn(browser, app, { email: 'refused@example.com', path: '/outbox' });
    expect((await app.rest('PUT', '/v1/user-settings', { token, body: { whiteEmailList: ['stranger@partner.org'] } })).status).toBe(200);
    await app.rest('POST', '/v1/transcript/lines', {
      token,
      body: {
        meeting: { sessionId: 'e2e-refused', meetCode: 'abc-defg-hij', startedAt, title: 'Partner call' },
        lines: TALK.map(([speaker, text], i) => ({ captionId: `c${i}`, revision: 0, speaker, text, spokenAt: startedAt + i * 60_000, final: true })),
      },
    });
    await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId: 'e2e-refused', finishedAt: startedAt + 25 * 60_000 } });
    await expect
      .poll(async () => (await app.rest<{ recaps: { status: string }[] }>('GET', '/v1/recaps', { token })).body.recaps[0]?.status, { timeout: 30_000 })
      .toBe('sent');
    await page.reload();
    const row = page.getByTestId('recap-row').first();
    await row.waitFor();
    expect(await row.textContent()).toContain('Written to outbox');
    const refusal = 'Not sent to stranger@partner.org: it has not confirmed (yet) to receive these e-mails';
    expect(await row.textContent()).toContain(refusal);
    expect(await row.textContent()).toContain('to refused@example.com');
    expect(await page.getByRole('region', { name: 'Recap preview' }).getByRole('note').textContent()).toBe(`${refusal}.`);
    await page.screenshot({ path: path.join(SHOTS, 'outbox-refused-1280.png'), fullPage: true });
    await context.close();
  });

  it('previews the e-mail styled, with no CSP error, and names an untitled meeting as the app does', async () => {
    const { context, page, token } = await openSignedIn(browser, app, { email: 'untitled@example.com', path: '/outbox' });
    const cspErrors: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/.test(m.text())) cspErrors.push(m.text());
    });
    await page.getByRole('heading', { name: 'No recaps yet' }).waitFor();
    // No title: the meeting reads 'Untitled meet' in the app, and so in its recap.
    const lines = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
      token,
      body: {
        meeting: { sessionId: 'e2e-untitled', meetCode: 'tuv-wxyz-abc', startedAt },
        lines: TALK.map(([speaker, text], i) => ({ captionId: `c${i}`, revision: 0, speaker, text, spokenAt: startedAt + i * 60_000, final: true })),
      },
    });
    expect(lines.status).toBe(200);
    expect((await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId: 'e2e-untitled', finishedAt: startedAt + 25 * 60_000 } })).status).toBe(200);
    const row = page.getByTestId('recap-row').first();
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByRole('heading', { name: 'Outbox' }).waitFor();
        return (await row.count()) ? await row.textContent() : '';
      }, { timeout: 30_000, interval: 1000 })
      .toContain('Written to outbox');
    expect(await row.textContent()).toContain('Recap: Untitled meet (');
    expect(await row.textContent()).not.toContain('tuv-wxyz-abc');

    const mail = page.frameLocator('iframe[title^="E-mail:"]');
    const title = mail.getByRole('heading', { name: 'Untitled meet' });
    await title.waitFor();
    // The e-mail's own inline styles apply: its 22 px heading, its button-like link.
    expect(await title.evaluate((el) => getComputedStyle(el).fontSize)).toBe('22px');
    const open = mail.getByRole('link', { name: 'Open the meeting in Mbox' });
    expect(await open.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(79, 70, 229)');
    expect(cspErrors).toEqual([]);

    // The e-mail page is the owner's only.
    const recapId = new URL(page.url()).searchParams.get('recap') ?? (await page.locator('iframe[title^="E-mail:"]').getAttribute('src'))!.split('/')[3]!;
    const other = await openSignedIn(browser, app, { email: 'someone-else@example.com', path: '/outbox' });
    const foreign = await other.context.request.get(`${app.url}/v1/recaps/${recapId}/email.html`);
    expect(foreign.status()).toBe(404);
    await other.context.close();
    await context.close();
  });

  it('the unsubscribe page turns recap e-mails off without signing in', async () => {
    const login = await app.rest<{ token: string }>('POST', '/v1/auth/login', { body: { email: 'unsub-page@example.com' } });
    const token = login.body.token;
    await app.rest('POST', '/v1/transcript/lines', {
      token,
      body: {
        meeting: { sessionId: 'e2e-unsub', meetCode: 'abc-defg-hij', startedAt, title: 'Weekly' },
        lines: TALK.map(([speaker, text], i) => ({ captionId: `c${i}`, revision: 0, speaker, text, spokenAt: startedAt + i * 60_000, final: true })),
      },
    });
    await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId: 'e2e-unsub', finishedAt: startedAt + 25 * 60_000 } });
    let recap: RecapDetail | undefined;
    await expect
      .poll(
        async () => {
          const list = await app.rest<{ recaps: { id: string; status: string }[] }>('GET', '/v1/recaps', { token });
          const first = list.body.recaps[0];
          if (first?.status === 'sent') recap = (await app.rest<RecapDetail>('GET', `/v1/recaps/${first.id}`, { token })).body;
          return first?.status;
        },
        { timeout: 30_000 },
      )
      .toBe('sent');
    const link = new URL(/Unsubscribe: (\S+)/.exec(recap!.text)![1]!);

    for (const [name, viewport] of [['1280', VIEWPORTS.desktop], ['390', VIEWPORTS.phone]] as const) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${app.url}${link.pathname}${link.search}`);
      if (name === '1280') {
        await page.getByRole('heading', { name: 'Stop recap e-mails?' }).waitFor();
        expect(await page.getByText('u*********@example.com').isVisible()).toBe(true);
        await page.screenshot({ path: path.join(SHOTS, `unsubscribe-confirm-${name}.png`) });
        // Opening the link changed nothing; the button does.
        expect((await app.rest<{ sendSummary: boolean }>('GET', '/v1/user-settings', { token })).body.sendSummary).toBe(true);
        await page.getByRole('button', { name: 'Unsubscribe' }).click();
      }
      await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
      await page.screenshot({ path: path.join(SHOTS, `unsubscribe-done-${name}.png`) });
      await context.close();
    }
    expect((await app.rest<{ sendSummary: boolean }>('GET', '/v1/user-settings', { token })).body.sendSummary).toBe(false);

    const broken = await browser.newContext();
    const page = await broken.newPage();
    await page.goto(`${app.url}/unsubscribe?token=not-a-real-token`);
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await broken.close();
  });
});
