import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ActionItem, ActionItemPage } from '@mbox/shared';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { openSignedIn, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

/** Tuesday 5 March 2024, 09:00 UTC: "by Friday" is 8 March. */
const TUESDAY = Date.UTC(2024, 2, 5, 9);
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

const PLANNING = [
  ['Ana', 'Welcome everyone, today we decide the launch date for the new billing page.'],
  ['Ben', 'The billing page is ready for review; QA found two bugs in the invoice export.'],
  ['Ana', 'Then we fix the invoice export bugs first and launch next Tuesday.'],
  ['Ben', 'Agreed. I will fix the export bugs by Friday and send the release notes.'],
  ['Ana', 'Great. I will announce the launch to customers on Tuesday morning.'],
  ['Ben', 'I will also update the help centre article about invoices.'],
] as const;

/** Captures a meeting as the extension does (same Meet code each time) and answers its id. */
async function capture(app: TestApp, token: string, sessionId: string, startedAt: number, lines: readonly (readonly [string, string])[]) {
  const { status, body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
    token,
    body: {
      meeting: { sessionId, meetCode: 'wee-klys-ync', startedAt, title: `Weekly ${sessionId}`, participants: ['Ana', 'Ben'] },
      lines: lines.map(([speaker, text], i) => ({ captionId: `c${i}`, revision: 0, speaker, text, spokenAt: startedAt + i * 10_000, final: true })),
    },
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.meetingKey;
}

/** Ends a meeting and waits until its action items are read. */
async function endAndExtract(app: TestApp, token: string, sessionId: string, meetingId: string, startedAt: number): Promise<ActionItem[]> {
  expect((await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId, finishedAt: startedAt + 30 * 60_000 } })).status).toBe(200);
  const items = async () => (await app.rest<ActionItemPage>('GET', `/v1/action-items?meetingId=${meetingId}`, { token })).body.items;
  await expect.poll(async () => (await items()).length, { timeout: 60_000, interval: 250 }).toBeGreaterThanOrEqual(3);
  return items();
}

const rows = (page: Page) => page.getByTestId('action-item');

describe('Action items page', () => {
  const web = webAppAndBrowser({ JOB_POLL_SECONDS: 0.5 });

  it('lists, filters, ticks off and edits items from the keyboard, and opens the line an item came from', { timeout: 180_000 }, async () => {
    const email = 'ledger@example.com';
    const token = await web.app.signIn(email);
    const meetingId = await capture(web.app, token, 'w1', TUESDAY, PLANNING);
    const items = await endAndExtract(web.app, token, 'w1', meetingId, TUESDAY);
    const { context, page } = await openSignedIn(web.browser, web.app, { email, path: '/' });
    try {
      // The menu leads there.
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Action items' }).click();
      await page.getByRole('heading', { name: 'Action items', level: 1 }).waitFor();
      await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBe(items.length);
      expect(await page.getByRole('region', { name: /^Weekly w1/ }).count()).toBe(1);

      // Filter by owner: only Ana's.
      await page.getByLabel('Owner', { exact: true }).selectOption('Ana');
      await expect.poll(() => rows(page).count()).toBe(items.filter((i) => i.owner === 'Ana').length);
      expect(page.url()).toContain('owner=Ana');
      await page.getByRole('button', { name: 'Clear filters' }).first().click();
      await expect.poll(() => rows(page).count()).toBe(items.length);

      // Tick off from the keyboard: the checkbox has focus, Space marks it done on the server.
      const fix = items.find((i) => i.owner === 'Ben' && /export bugs/.test(i.text))!;
      const done = page.getByRole('checkbox', { name: `Done: ${fix.text}` });
      await done.focus();
      await page.keyboard.press('Space');
      await expect.poll(async () => (await web.app.rest<ActionItem>('GET', `/v1/action-items/${fix.id}`, { token })).body.status).toBe('done');
      expect(await done.isChecked()).toBe(true);
      // It stays, struck through, until the list is read again; the Done filter shows it.
      await page.getByLabel('Status').selectOption('done');
      await expect.poll(() => rows(page).count()).toBe(1);
      await page.getByLabel('Status').selectOption('open');
      await expect.poll(() => rows(page).count()).toBe(items.length - 1);

      // Edit from the keyboard: Enter on Edit opens the form with the task focused, Enter saves.
      const announce = items.find((i) => i.owner === 'Ana')!;
      const edit = page.getByRole('button', { name: `Edit: ${announce.text}` });
      await edit.focus();
      await page.keyboard.press('Enter');
      const task = page.getByLabel('Task', { exact: true });
      expect(await task.evaluate((el) => el === document.activeElement)).toBe(true);
      await task.fill('Announce the launch in the newsletter');
      // Tab order: task, owner, due day.
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      const due = page.getByLabel('Due', { exact: true });
      expect(await due.evaluate((el) => el === document.activeElement)).toBe(true);
      await due.fill('2024-03-15');
      // On a slow machine (a loaded CI) the row re-renders late: Edit must still get the focus back.
      const cpu = await context.newCDPSession(page);
      await cpu.send('Emulation.setCPUThrottlingRate', { rate: 8 });
      await due.press('Enter');
      await page.getByText('Announce the launch in the newsletter').waitFor();
      const saved = (await web.app.rest<ActionItem>('GET', `/v1/action-items/${announce.id}`, { token })).body;
      expect(saved).toMatchObject({ text: 'Announce the launch in the newsletter', owner: 'Ana', due: '2024-03-15', edited: true });
      // Focus is back on Edit; Escape leaves the next edit without a change.
      const editAgain = page.getByRole('button', { name: 'Edit: Announce the launch in the newsletter' });
      await expect.poll(() => editAgain.evaluate((el) => el === document.activeElement)).toBe(true);
      await cpu.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await page.keyboard.press('Enter');
      await page.getByLabel('Task', { exact: true }).fill('Something else');
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('form', { name: 'Edit action item' }).count()).toBe(0);
      expect((await web.app.rest<ActionItem>('GET', `/v1/action-items/${announce.id}`, { token })).body.text).toBe('Announce the launch in the newsletter');

      // The line it came from opens highlighted in the transcript.
      const row = rows(page).filter({ hasText: 'Announce the launch in the newsletter' });
      await row.getByTestId('action-item-source').click();
      await page.waitForURL(new RegExp(`/${meetingId}\\?line=${announce.source!.messageId}`));
      const highlighted = page.locator('[data-highlighted="true"]');
      await highlighted.waitFor({ timeout: 15_000 });
      expect(await highlighted.getByTestId('message-text').textContent()).toBe(PLANNING[4][1]);
    } finally {
      await context.close();
    }
  });

  it('shows "Open from last time" on the next meeting of the same Meet code, and works at 390 px', { timeout: 180_000 }, async () => {
    const email = 'weekly@example.com';
    const token = await web.app.signIn(email);
    const first = await capture(web.app, token, 'first', TUESDAY, PLANNING);
    const items = await endAndExtract(web.app, token, 'first', first, TUESDAY);
    const ticked = items[0]!;
    await web.app.rest('POST', `/v1/action-items/${ticked.id}/done`, { token, body: {} });
    const second = await capture(web.app, token, 'second', TUESDAY + WEEK_MS, PLANNING.slice(0, 2));

    const { context, page } = await openSignedIn(web.browser, web.app, { email, path: `/${second}` });
    try {
      const panel = page.getByTestId('open-from-last-time');
      await panel.waitFor({ timeout: 15_000 });
      expect(await panel.locator('summary').textContent()).toBe(`Open from last time (${items.length - 1})`);
      expect(await panel.getByRole('link', { name: 'Weekly first' }).getAttribute('href')).toBe(`/${first}`);
      expect(await panel.getByTestId('action-item').allTextContents()).toEqual(items.slice(1).map((i) => expect.stringContaining(i.text)));
      // Ticked off there, it is done at once (struck through), and gone from the list once read again.
      await panel.getByRole('checkbox', { name: `Done: ${items[1]!.text}` }).check();
      expect(await panel.locator(`[data-status="done"]`).count()).toBe(1);
      await expect.poll(async () => (await web.app.rest<ActionItem>('GET', `/v1/action-items/${items[1]!.id}`, { token })).body.status).toBe('done');
      await page.reload();
      await panel.waitFor();
      await expect.poll(() => panel.getByTestId('action-item').count()).toBe(items.length - 2);

      // The ledger on a phone: filters and items fit the width, nothing scrolls sideways.
      await page.setViewportSize(VIEWPORTS.phone);
      await page.goto(`${web.app.url}/action-items?status=all`);
      await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBe(items.length);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
      await page.getByLabel('Meeting', { exact: true }).selectOption(first);
      expect(page.url()).toContain(`meeting=${first}`);
      await expect.poll(() => rows(page).count()).toBe(items.length);
    } finally {
      await context.close();
    }
  });

  it('says how items get here when there are none', async () => {
    const { context, page } = await openSignedIn(web.browser, web.app, { email: 'new@example.com', path: '/action-items' });
    try {
      const empty = page.getByTestId('action-items-empty');
      await empty.waitFor({ timeout: 15_000 });
      expect(await empty.textContent()).toContain('When a meeting ends');
    } finally {
      await context.close();
    }
  });
});
