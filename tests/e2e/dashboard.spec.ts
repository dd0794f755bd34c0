import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMeeting } from '../../apps/server/src/test/fixtures.js';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { readQmsumTurns } from '../fixtures/meet/replay.js';
import { launchBrowser, openSignedIn, startWebApp, VIEWPORTS } from './support/browser.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60_000;
const ZONE = 'Europe/Berlin';
const EMAIL = 'stats@example.com';

/** Three meetings with known start times and lengths: two in the last week, one long ago. */
const NOW = Date.now();
const SEEDED = [
  { session: 'dash-a', startedAt: NOW - 1 * DAY_MS, minutes: 30, transcript: 'ES2004a' },
  { session: 'dash-b', startedAt: NOW - 2 * DAY_MS, minutes: 45, transcript: 'IS1003b' },
  { session: 'dash-c', startedAt: NOW - 40 * DAY_MS, minutes: 90, transcript: 'ES2004a' },
];

const monthOf = (ms: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit' }).format(ms);
const inThisMonth = SEEDED.filter((m) => monthOf(m.startedAt) === monthOf(NOW));
const hm = (minutes: number) => (minutes >= 60 ? `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m` : `${minutes}m`);

async function statValue(page: Page, testId: string): Promise<string> {
  return (await page.getByTestId(testId).locator('.stat-value').innerText()).trim();
}

async function panelWidth(page: Page, id: string): Promise<number> {
  const box = await page.locator(`[data-panel]#${id}`).boundingBox();
  if (!box) throw new Error(`panel ${id} not visible`);
  return box.width;
}

/** Each panel's share of the panels' total width, in whole percent (separators excluded). */
async function panelShares(page: Page, ids: string[]): Promise<number[]> {
  const widths = await Promise.all(ids.map((id) => panelWidth(page, id)));
  const total = widths.reduce((a, b) => a + b, 0);
  return widths.map((w) => Math.round((w / total) * 100));
}

describe('dashboard, meeting screen layout and 404', () => {
  let app: TestApp;
  let browser: Browser;
  let analysedKey = '';

  beforeAll(async () => {
    app = await startWebApp();
    browser = await launchBrowser();
    const token = await app.signIn(EMAIL);
    // Recaps off: a recap generates the default summary, which would count the ended meetings as analysed.
    await app.rest('PUT', '/v1/user-settings', { token, body: { timezone: ZONE, sendSummary: false } });
    for (const seeded of SEEDED) {
      const turns = await readQmsumTurns(seeded.transcript, 24);
      const { meetingKey } = await seedMeeting(app, token, seeded.session, turns, seeded.startedAt);
      const end = await app.rest('POST', '/v1/transcript/end', {
        token,
        body: { sessionId: seeded.session, finishedAt: seeded.startedAt + seeded.minutes * MINUTE_MS },
      });
      expect(end.status).toBe(200);
      if (!analysedKey) analysedKey = meetingKey;
    }
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('shows the figures of the seeded meetings, and the analysed count after a summary', async () => {
    const { context, page, token } = await openSignedIn(browser, app, { email: EMAIL, path: '/' });
    try {
      await page.getByTestId('dashboard-stats').waitFor();
      expect(await statValue(page, 'stat-total')).toBe('3');
      expect(await statValue(page, 'stat-last7')).toBe('2');
      expect(await statValue(page, 'stat-month')).toBe(String(inThisMonth.length));
      expect(await statValue(page, 'stat-analyzed')).toBe('0');
      expect(await statValue(page, 'stat-total-time')).toBe(hm(30 + 45 + 90));
      expect(await statValue(page, 'stat-month-time')).toBe(hm(inThisMonth.reduce((sum, m) => sum + m.minutes, 0)));

      // Both charts draw on a canvas: meetings per week and the latest meeting's talk time.
      await page.locator('canvas[aria-label="Meetings per week"]').waitFor();
      await page.locator('canvas[aria-label="Talk time per speaker"]').waitFor();

      const summary = await app.rest('POST', '/v1/prompts', { token, body: { meetKey: analysedKey, promptKey: 'summary' } });
      expect(summary.status).toBe(200);
      await page.reload();
      await page.getByTestId('dashboard-stats').waitFor();
      expect(await statValue(page, 'stat-analyzed')).toBe('1');
      // floor(1 / 3 × 100)
      expect(await page.getByTestId('stat-analyzed').locator('.stat-desc').innerText()).toBe('33% of meetings');
    } finally {
      await context.close();
    }
  });

  it('shows the empty state with a New Google Meet button to a new user', async () => {
    const { context, page } = await openSignedIn(browser, app, { email: 'new-user@example.com', path: '/dashboard' });
    try {
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      const empty = page.getByTestId('meetings-empty');
      await empty.getByText('No meetings (yet)').waitFor();
      const button = empty.getByRole('link', { name: 'New Google Meet' });
      expect(await button.getAttribute('href')).toBe('https://meet.google.com/new');
      expect(await button.getAttribute('target')).toBe('_blank');
      // /dashboard is the dashboard alone: no meeting list beside it.
      expect(await page.getByRole('heading', { name: 'Last meetings' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('shows /dashboard alone with the statistics', async () => {
    const { context, page } = await openSignedIn(browser, app, { email: EMAIL, path: '/dashboard' });
    try {
      await page.getByTestId('dashboard-stats').waitFor();
      expect(await statValue(page, 'stat-total')).toBe('3');
      expect(await page.locator('[data-panel]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('shows a product 404 page for unknown paths, with a working way home', async () => {
    const { context, page } = await openSignedIn(browser, app, { email: EMAIL, path: '/no/such/page' });
    try {
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      expect(await page.getByText('Unexpected Application Error').count()).toBe(0);
      await page.goto(`${app.url}/tools/nothing-here`);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await page.getByRole('link', { name: 'Go to home page' }).click();
      await page.waitForURL(`${app.url}/`);
      await page.getByTestId('dashboard-stats').waitFor();
      // A single unknown segment reads as a meeting id: the meeting's not-found view (first-hour.spec.ts).
      await page.goto(`${app.url}/not-a-meeting`);
      await page.getByRole('heading', { name: 'Meeting not found' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('sizes the panels as documented at 1280 px, resizes by 10 % from the keyboard and keeps the layout', async () => {
    const { context, page } = await openSignedIn(browser, app, { email: EMAIL, path: '/' });
    try {
      await page.locator('[data-panel]#dashboard').waitFor();
      expect(await panelShares(page, ['meetings', 'dashboard'])).toEqual([30, 70]);

      await page.goto(`${app.url}/${analysedKey}`);
      await page.locator('[data-panel]#summary').waitFor();
      expect(await panelShares(page, ['meetings', 'transcript', 'summary'])).toEqual([30, 40, 30]);

      // One arrow key moves the separator by 10 % of the group.
      await page.getByRole('separator', { name: 'Resize meeting list' }).focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => panelShares(page, ['meetings', 'transcript', 'summary'])).toEqual([40, 30, 30]);
      // Saved under the auto-save id: a reload restores it.
      await expect
        .poll(() => page.evaluate(() => Object.keys(localStorage).some((key) => key.includes('mbox-meeting-layout'))))
        .toBe(true);
      await page.reload();
      await page.locator('[data-panel]#summary').waitFor();
      await expect.poll(() => panelShares(page, ['meetings', 'transcript', 'summary'])).toEqual([40, 30, 30]);

      // The list stops at its 50 % maximum; the others give way down to their 25 % minimum.
      await page.getByRole('separator', { name: 'Resize meeting list' }).focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => panelShares(page, ['meetings', 'transcript', 'summary'])).toEqual([50, 25, 25]);

      // At 1024 px the header and the panels still fit the width.
      await page.setViewportSize(VIEWPORTS.laptop);
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    } finally {
      await context.close();
    }
  });

  it('shows one panel at a time at phone width, without horizontal overflow', async () => {
    const { context, page } = await openSignedIn(browser, app, { email: EMAIL, path: '/', viewport: VIEWPORTS.phone });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth);
    try {
      const tabs = page.getByRole('tablist', { name: 'Meeting panels' });
      await tabs.waitFor();
      expect(await page.locator('[data-panel]').count()).toBe(0);
      // Without an id the list comes first.
      await page.getByTestId('meeting-item').first().waitFor();
      expect(await overflow()).toBeLessThanOrEqual(390);

      await tabs.getByRole('tab', { name: 'Dashboard' }).click();
      await page.getByTestId('dashboard-stats').waitFor();
      expect(await page.getByTestId('meeting-item').count()).toBe(0);
      expect(await overflow()).toBeLessThanOrEqual(390);

      // The menu collapses into a dropdown.
      expect(await page.getByRole('navigation', { name: 'Main menu' }).isVisible()).toBe(false);
      await page.getByLabel('Open menu').click();
      await page.getByRole('link', { name: 'AI Tools' }).waitFor();
      await page.getByLabel('Open menu').click();

      // Opening a meeting shows its transcript; the tabs switch to the summary and back to the list.
      await tabs.getByRole('tab', { name: 'Meetings' }).click();
      await page.getByTestId('meeting-item').first().locator('a').click();
      await tabs.getByRole('tab', { name: 'Transcript', selected: true }).waitFor();
      expect(await overflow()).toBeLessThanOrEqual(390);
      await tabs.getByRole('tab', { name: 'Summary' }).click();
      await page.getByTestId('talk-time-section').waitFor();
      expect(await overflow()).toBeLessThanOrEqual(390);
      await tabs.getByRole('tab', { name: 'Meetings' }).click();
      await page.getByTestId('meeting-item').first().waitFor();
      expect(await overflow()).toBeLessThanOrEqual(390);
    } finally {
      await context.close();
    }
  });
});
