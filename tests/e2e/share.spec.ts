import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { makePremium, seedMeeting } from '../../apps/server/src/test/fixtures.js';
import { openSignedIn, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

/** Where the screenshots go (looked at by hand; not committed by this test). */
const SHOTS = process.env.SHARE_SHOTS_DIR ?? '/tmp/share-shots';

const EMAIL = 'owner@example.com';
const startedAt = Date.UTC(2026, 10, 20, 15, 0);
const TALK = [
  { speaker: 'Ana Lopez', text: 'Welcome everyone, today we decide the launch date for the new billing page.' },
  { speaker: 'Ben Okafor', text: 'The billing page is ready for review; QA found two bugs in the invoice export.' },
  { speaker: 'Ben Okafor', text: 'Both are small, I expect them fixed this week.' },
  { speaker: 'Ana Lopez', text: 'Then we fix the invoice export bugs first and launch next Tuesday.' },
  { speaker: 'Carla Diaz', text: 'I will announce the launch to customers on Tuesday morning.' },
];

/** The path of a share link (its origin is PUBLIC_URL's, unset here): opened against the test server. */
const pathOf = (url: string) => new URL(url).pathname;

const shareDialog = (page: Page) => page.getByRole('dialog', { name: 'Share meeting' });

/** Lets the dialog's opening transition finish before a screenshot. */
const settle = (page: Page) => page.waitForTimeout(400);

describe('share links', () => {
  const web = webAppAndBrowser();
  let token = '';
  let meetingKey = '';

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    token = await web.app.signIn(EMAIL);
    // Recaps off: ending the meeting must not summarise it in the background.
    await web.app.rest('PUT', '/v1/user-settings', { token, body: { sendSummary: false } });
    const seeded = await seedMeeting(web.app, token, 'e2e-share', TALK, startedAt);
    meetingKey = seeded.meetingKey;
    await web.app.rest('POST', '/v1/transcript/end', { token, body: { sessionId: 'e2e-share', finishedAt: startedAt + 25 * 60_000 } });
    await web.app.deps.db.meeting.update({ where: { id: meetingKey }, data: { title: 'Billing launch sync' } });
    await web.app.deps.db.summary.create({
      data: {
        meetingId: meetingKey,
        promptKey: 'summary',
        title: 'Summary',
        text: '<p>The team set the <strong>billing page launch</strong> for next Tuesday.</p><ul><li>Ben fixes the export bugs</li><li>Carla announces the launch</li></ul>',
      },
    });
    // The owner's own notes: a shared link shows none of them.
    await web.app.deps.db.message.update({ where: { id: seeded.messages[1]!.key }, data: { comment: 'Ask Ben about the QA budget', marks: ['important', 'commented'] } });
  });

  it('the owner shares from the meeting screen; a fresh browser sees it read-only; after Stop sharing the link is a 404', async () => {
    const owner = await openSignedIn(web.browser, web.app, { email: EMAIL, path: `/${meetingKey}` });
    await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.app.url });
    const { page } = owner;
    await page.getByTestId('transcript-header').getByRole('button', { name: 'Share' }).click();
    const dialog = shareDialog(page);
    await dialog.getByText("Anyone with the link can view this meeting's transcript and summaries.").waitFor();
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const urlField = dialog.getByTestId('share-url');
    await urlField.waitFor();
    const firstUrl = await urlField.inputValue();
    expect(firstUrl).toMatch(/\/shared\/[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstUrl);
    await dialog.getByTestId('shared-since').waitFor();
    await settle(page);
    await page.screenshot({ path: path.join(SHOTS, 'share-dialog-1280.png') });
    // Closed and opened again on the same page, the dialog still has the link to copy.
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('transcript-header').getByRole('button', { name: 'Share' }).click();
    expect(await dialog.getByTestId('share-url').inputValue()).toBe(firstUrl);

    // Anyone: a fresh context, no cookies. Every call it makes is the one read.
    const visitor = await web.browser.newContext({ viewport: VIEWPORTS.desktop });
    const anon = await visitor.newPage();
    const calls: string[] = [];
    const cspViolations: string[] = [];
    anon.on('console', (message) => {
      if (/Content Security Policy|Refused to/.test(message.text())) cspViolations.push(message.text());
    });
    anon.on('request', (request) => {
      const url = new URL(request.url());
      if (/^\/(trpc|v1)\//.test(url.pathname)) calls.push(`${request.method()} ${url.pathname}`);
    });
    await anon.goto(`${web.app.url}${pathOf(firstUrl)}`);
    await anon.getByRole('heading', { name: 'Billing launch sync', level: 1 }).waitFor();
    const lines = anon.getByTestId('shared-line');
    expect(await lines.count()).toBe(TALK.length);
    expect(await lines.allTextContents()).toEqual(TALK.map((line) => line.text));
    // The summary asked for; the meeting's end also wrote its Action Items (the action-item ledger reads them).
    const summary = anon.getByTestId('shared-summary').and(anon.getByRole('region', { name: 'Summary', exact: true }));
    expect(await summary.textContent()).toContain('The team set the billing page launch for next Tuesday.');
    expect(await anon.getByTestId('shared-duration').textContent()).toBe('for 25 minutes');
    for (const name of ['Ana Lopez', 'Ben Okafor', 'Carla Diaz']) expect(await anon.getByTestId('participants').textContent()).toContain(name);
    expect(await anon.getByText('Shared from Mbox').isVisible()).toBe(true);
    // No edit controls at all, and none of the owner's notes.
    expect(await anon.getByRole('button').count()).toBe(0);
    expect(await anon.getByRole('textbox').count()).toBe(0);
    expect(await anon.locator('body').textContent()).not.toContain('Ask Ben about the QA budget');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.startsWith('GET '))).toBe(true);
    expect(calls.filter((call) => call.includes('share.view'))).toHaveLength(1);
    expect(calls.filter((call) => !call.includes('share.view') && !call.includes('auth.'))).toEqual([]);
    // The page and its summary HTML live within the app's CSP; the document is noindex and sends no Referer.
    expect(cspViolations).toEqual([]);
    const shell = await visitor.request.get(`${web.app.url}${pathOf(firstUrl)}`);
    expect(shell.headers()['referrer-policy']).toBe('no-referrer');
    expect(shell.headers()['x-robots-tag']).toBe('noindex, nofollow');
    expect(shell.headers()['content-security-policy']).toContain("script-src 'self'");
    await anon.screenshot({ path: path.join(SHOTS, 'shared-page-1280.png'), fullPage: true });
    await anon.setViewportSize(VIEWPORTS.phone);
    await anon.screenshot({ path: path.join(SHOTS, 'shared-page-390.png'), fullPage: true });

    // A new link replaces the old one.
    await dialog.getByRole('button', { name: 'Create a new link' }).click();
    await page.getByRole('dialog', { name: 'Create a new link?' }).getByRole('button', { name: 'Create new link' }).click();
    await expect.poll(() => urlField.inputValue()).not.toBe(firstUrl);
    const secondUrl = await urlField.inputValue();
    await anon.goto(`${web.app.url}${pathOf(firstUrl)}`);
    await anon.getByRole('heading', { name: 'Page not found' }).waitFor();
    await anon.goto(`${web.app.url}${pathOf(secondUrl)}`);
    await anon.getByRole('heading', { name: 'Billing launch sync', level: 1 }).waitFor();

    // Stop sharing, confirmed: the link is the product's 404 page.
    await dialog.getByRole('button', { name: 'Stop sharing' }).click();
    await page.getByRole('dialog', { name: 'Stop sharing?' }).getByRole('button', { name: 'Stop sharing' }).click();
    await dialog.getByRole('button', { name: 'Create link' }).waitFor();
    expect(await shareDialog(page).isVisible()).toBe(true);
    await anon.reload();
    await anon.getByRole('heading', { name: 'Page not found' }).waitFor();
    await anon.screenshot({ path: path.join(SHOTS, 'shared-revoked-390.png') });

    // At phone width the header's Share button is an icon with the same name.
    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByRole('tab', { name: 'Transcript' }).click();
    await page.getByTestId('transcript-header').getByRole('button', { name: 'Share' }).click();
    await shareDialog(page).getByRole('button', { name: 'Create link' }).click();
    await shareDialog(page).getByTestId('share-url').waitFor();
    await settle(page);
    await page.screenshot({ path: path.join(SHOTS, 'share-dialog-390.png') });
    await visitor.close();
    await owner.context.close();
  });

  it('a signed-in reader sees the same read-only page', async () => {
    const created = await web.app.rest<{ url: string }>('POST', `/v1/meeting/${meetingKey}/share`, { token });
    const reader = await openSignedIn(web.browser, web.app, { email: 'reader@example.com', path: pathOf(created.body.url), viewport: VIEWPORTS.phone });
    await reader.page.getByRole('heading', { name: 'Billing launch sync', level: 1 }).waitFor();
    expect(await reader.page.getByTestId('shared-line').count()).toBe(TALK.length);
    await reader.page.screenshot({ path: path.join(SHOTS, 'shared-page-signed-in-390.png') });
    await reader.context.close();
  });

  it('a shared meeting of 5,000 lines opens quickly in a fresh browser', async () => {
    const { meetingKey: big } = await seedMeeting(web.app, token, 'e2e-share-big', TALK.slice(0, 1), startedAt);
    await web.app.deps.db.message.createMany({
      data: Array.from({ length: 4999 }, (_, i) => ({
        meetingId: big,
        captionId: `big${i}`,
        revision: 0,
        final: true,
        user: TALK[i % TALK.length]!.speaker,
        text: `${TALK[i % TALK.length]!.text} (${i + 2})`,
        spokenAt: new Date(startedAt + (i + 1) * 1000),
      })),
    });
    const created = await web.app.rest<{ url: string }>('POST', `/v1/meeting/${big}/share`, { token });
    const visitor = await web.browser.newContext({ viewport: VIEWPORTS.desktop });
    const anon = await visitor.newPage();
    const started = Date.now();
    await anon.goto(`${web.app.url}${pathOf(created.body.url)}`);
    await anon.getByText('(5000)').waitFor({ state: 'attached' });
    const elapsed = Date.now() - started;
    expect(await anon.getByTestId('shared-line').count()).toBe(5000);
    await anon.keyboard.press('End');
    await anon.getByText('(5000)').waitFor();
    // Loose bound for a shared 2-core machine; it takes about a second when idle.
    expect(elapsed).toBeLessThan(10_000);
    await visitor.close();
  });

  it('an encrypted meeting says why it cannot be shared', async () => {
    await makePremium(web.app, EMAIL);
    const { meetingKey: sealed } = await seedMeeting(web.app, token, 'e2e-share-sealed', TALK, startedAt);
    expect((await web.app.rest('PUT', `/v1/p/meeting/encrypt/${sealed}`, { token })).status).toBe(200);
    const { context, page } = await openSignedIn(web.browser, web.app, { email: EMAIL, path: `/${sealed}` });
    await page.getByTestId('transcript-header').getByRole('button', { name: 'Share' }).click();
    const notice = shareDialog(page).getByTestId('share-encrypted');
    await notice.waitFor();
    await settle(page);
    expect(await notice.textContent()).toContain('This meeting is encrypted, so it cannot be shared');
    expect(await shareDialog(page).getByRole('button', { name: 'Create link' }).count()).toBe(0);
    await page.screenshot({ path: path.join(SHOTS, 'share-encrypted-1280.png') });
    await context.close();
  });
});
