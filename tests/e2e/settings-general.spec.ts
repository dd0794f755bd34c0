import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_UPDATED, type UserSettings } from '@mbox/shared';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../apps/server/src/test/webhook-receiver.js';
import { startSmtpServer, type TestSmtpServer } from '../../apps/server/src/test/smtp-server.js';
import { launchBrowser, openSignedIn, startWebApp, VIEWPORTS } from './support/browser.js';

/** Where the screenshots go (looked at by hand; not committed by this test). */
const SHOTS = process.env.SETTINGS_SHOTS_DIR ?? '/tmp/webhooks-shots';

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });
const chips = (page: Page) => page.getByRole('list', { name: 'Additional recipients' }).getByRole('listitem');

describe('Settings › General tab', () => {
  let app: TestApp;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    receiver = await startWebhookReceiver();
    smtp = await startSmtpServer();
    app = await startWebApp({ WEBHOOK_ALLOWED_HOSTS: [receiver.host], SMTP_URL: smtp.url });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await receiver?.close();
    await smtp?.close();
  });

  it('saves the e-mail options: toggles, redirect address and recipient chips; Save only when something changed', async () => {
    const { context, page, token } = await openSignedIn(browser, app, { email: 'general@example.com', path: '/settings' });
    const save = page.getByRole('button', { name: 'Save', exact: true });
    const sendSummary = page.getByRole('checkbox', { name: /Send the summary after a meeting/ });
    const sendNoSummary = page.getByRole('checkbox', { name: /too short to summarise/ });
    const redirect = page.getByLabel('Send recaps to (instead of my account address)');
    const recipients = page.getByLabel('Also send recaps to');
    await sendSummary.waitFor();

    // product.md, Data defaults, nothing changed: Save disabled.
    expect(await sendSummary.isChecked()).toBe(true);
    expect(await sendNoSummary.isChecked()).toBe(false);
    expect(await save.isDisabled()).toBe(true);
    await sendNoSummary.check();
    expect(await save.isEnabled()).toBe(true);
    await sendNoSummary.uncheck();
    expect(await save.isDisabled()).toBe(true);

    // Typed addresses: split on commas or spaces, only valid entries become chips.
    await recipients.fill('ana@team.org, not-an-address bo@team.org');
    await recipients.press('Enter');
    await expect.poll(async () => await chips(page).allTextContents()).toEqual(['ana@team.org×', 'bo@team.org×']);
    expect(await recipients.inputValue()).toBe('not-an-address');
    expect(await page.getByText('Not an e-mail address: not-an-address').isVisible()).toBe(true);
    // New chips are a valid change: invalid text beside them does not block Save (product.md, Validation).
    expect(await save.isEnabled()).toBe(true);
    await recipients.fill('');
    await page.getByRole('button', { name: 'Remove ana@team.org' }).click();
    await expect.poll(async () => await chips(page).allTextContents()).toEqual(['bo@team.org×']);

    await redirect.fill('me@work.com, oops');
    expect(await page.getByText('Not an e-mail address: oops').isVisible()).toBe(true);
    await redirect.fill('me@work.com');
    await sendNoSummary.check();
    await sendSummary.uncheck();
    expect(await save.isEnabled()).toBe(true);

    await page.screenshot({ path: path.join(SHOTS, 'general-editing-1280.png'), fullPage: true });
    await save.click();
    await toast(page, SETTINGS_UPDATED).waitFor();
    // The cache holds the saved values: nothing left to save.
    await expect.poll(async () => await save.isDisabled()).toBe(true);

    const stored = await app.rest<UserSettings>('GET', '/v1/user-settings', { token });
    expect(stored.body).toMatchObject({ sendSummary: false, sendNoSummary: true, redirectEmails: 'me@work.com', whiteEmailList: ['bo@team.org'] });

    await page.reload();
    await sendSummary.waitFor();
    expect(await sendSummary.isChecked()).toBe(false);
    expect(await sendNoSummary.isChecked()).toBe(true);
    expect(await redirect.inputValue()).toBe('me@work.com');
    expect(await chips(page).allTextContents()).toEqual(['bo@team.org×']);
    expect(await save.isDisabled()).toBe(true);
    // The Outbox is one link away.
    expect(await page.getByRole('link', { name: 'Outbox' }).getAttribute('href')).toBe('/outbox');
    await context.close();
  });

  it('saves a valid change next to invalid text: only the valid entries, and the invalid text stays with its message', async () => {
    const { context, page, token } = await openSignedIn(browser, app, { email: 'mixed@example.com', path: '/settings' });
    const save = page.getByRole('button', { name: 'Save', exact: true });
    const recipients = page.getByLabel('Also send recaps to');
    await recipients.waitFor();
    expect(await save.isDisabled()).toBe(true);

    await recipients.fill('a@b.co, bad');
    await recipients.press('Enter');
    await expect.poll(async () => await chips(page).allTextContents()).toEqual(['a@b.co×']);
    expect(await recipients.inputValue()).toBe('bad');
    expect(await page.getByText('Not an e-mail address: bad').isVisible()).toBe(true);
    expect(await save.isEnabled()).toBe(true);

    await save.click();
    await toast(page, SETTINGS_UPDATED).waitFor();
    const stored = await app.rest<UserSettings>('GET', '/v1/user-settings', { token });
    expect(stored.body.whiteEmailList).toEqual(['a@b.co']);
    // The form restarts from the saved values and keeps what could not be saved, with its message.
    await expect.poll(async () => await save.isDisabled()).toBe(true);
    expect(await chips(page).allTextContents()).toEqual(['a@b.co×']);
    expect(await recipients.inputValue()).toBe('bad');
    expect(await page.getByText('Not an e-mail address: bad').isVisible()).toBe(true);
    await context.close();
  });

  it('shows other people\'s addresses as pending until they agree on the page of their link, then as confirmed', async () => {
    const { context, page } = await openSignedIn(browser, app, { email: 'consent@example.com', path: '/settings' });
    const recipients = page.getByLabel('Also send recaps to');
    await recipients.waitFor();
    await recipients.fill('colleague@partner.org consent@example.com');
    await recipients.press('Enter');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, SETTINGS_UPDATED).waitFor();

    // Only the other person's address waits for an answer; the account's own needs none.
    const consents = page.getByRole('list', { name: 'Other people’s addresses' });
    await consents.getByRole('listitem', { name: 'colleague@partner.org: Pending confirmation' }).waitFor();
    expect(await consents.getByRole('listitem').count()).toBe(1);
    await page.screenshot({ path: path.join(SHOTS, 'general-pending-1280.png'), fullPage: true });

    // The e-mailed link opens a page that needs no account.
    await expect.poll(() => smtp.received.filter((m) => m.recipients.includes('colleague@partner.org')).length, { timeout: 20_000 }).toBe(1);
    const mail = smtp.received.find((m) => m.recipients.includes('colleague@partner.org'))!;
    const link = new URL(/(http\S+\/recipient\?token=\S+)/.exec(mail.parsed.text!)![1]!);
    const stranger = await browser.newContext({ viewport: VIEWPORTS.phone });
    const consentPage = await stranger.newPage();
    await consentPage.goto(`${app.url}/recipient${link.search}`);
    await consentPage.getByRole('heading', { name: 'Receive meeting recaps?' }).waitFor();
    const said = await consentPage.locator('.card-body').innerText();
    expect(said).toContain('consent@example.com uses Mbox, a meeting assistant, and asked for the summaries of their meetings to be e-mailed to colleague@partner.org');
    expect(said).toContain('Nothing is sent unless you agree.');
    await consentPage.screenshot({ path: path.join(SHOTS, 'recipient-390.png'), fullPage: true });
    await consentPage.getByRole('button', { name: 'Yes, send me the recaps' }).click();
    await consentPage.getByRole('heading', { name: 'You receive these recaps' }).waitFor();
    expect(await consentPage.getByRole('button', { name: 'Stop these e-mails' }).isVisible()).toBe(true);
    await stranger.close();

    await page.reload();
    await page.getByRole('list', { name: 'Other people’s addresses' }).getByRole('listitem', { name: 'colleague@partner.org: Confirmed' }).waitFor();
    await context.close();
  });

  it('adds a webhook, shows its test delivery, and deletes it after confirming', async () => {
    const { context, page, token } = await openSignedIn(browser, app, { email: 'hooks@example.com', path: '/settings' });
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByText('No webhooks yet.').waitFor();
    const url = section.getByLabel('Receiver URL');
    const add = section.getByRole('button', { name: 'Add webhook' });

    // The shared rule refuses a bad URL before any call; the server refuses a private address.
    await url.fill('ftp://files.example.com/x');
    await add.click();
    await section.getByText('URL must start with https:// or http://').waitFor();
    await url.fill('http://127.0.0.1/hook');
    await add.click();
    await section.getByText(/Webhook URL refused: it points to a private/).waitFor();

    await url.fill(`${receiver.url}/mbox`);
    await section.getByRole('checkbox', { name: /Meeting finished/ }).uncheck();
    await add.click();
    const item = section.getByRole('listitem', { name: `Webhook ${receiver.url}/mbox` });
    await item.waitFor();
    expect(await item.innerText()).toContain('summary.created');
    expect(await item.innerText()).not.toContain('meeting.finished');
    expect(await url.inputValue()).toBe('');

    const listed = await app.rest<{ webhooks: { secret: string }[] }>('GET', '/v1/webhooks', { token });
    await item.getByRole('button', { name: 'Show secret' }).click();
    expect(await item.getByLabel('Signing secret').innerText()).toBe(listed.body.webhooks[0]!.secret);

    await item.getByRole('button', { name: 'Send test' }).click();
    await toast(page, 'Test delivery queued').waitFor();
    await expect.poll(async () => await item.getByRole('list', { name: 'Recent deliveries' }).innerText(), { timeout: 20_000 }).toMatch(/Delivered[\s\S]*ping/);
    expect(receiver.requests.map((r) => r.path)).toEqual(['/mbox']);

    // The app scrolls inside its layout, not the document: a tall viewport shows the whole tab.
    for (const [size, width] of [['1280', VIEWPORTS.desktop.width], ['390', VIEWPORTS.phone.width]] as const) {
      await page.setViewportSize({ width, height: 2200 });
      await page.screenshot({ path: path.join(SHOTS, `general-${size}.png`) });
    }
    await page.setViewportSize(VIEWPORTS.desktop);

    await item.getByRole('button', { name: 'Delete' }).click();
    await item.getByRole('button', { name: 'Delete webhook' }).click();
    await section.getByText('No webhooks yet.').waitFor();
    expect((await app.rest<{ webhooks: unknown[] }>('GET', '/v1/webhooks', { token })).body.webhooks).toEqual([]);
    await context.close();
  });
});
