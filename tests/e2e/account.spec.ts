import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHANGELOG_ERROR, PAYMENT_FAILED, SETTINGS_UPDATED } from '@mbox/shared';
import { makePremium } from '../../apps/server/src/test/fixtures.js';
import { openSignedIn, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

/** Where the screenshots go (looked at by hand; not committed by this test). */
const SHOTS = process.env.ACCOUNT_SHOTS_DIR ?? '/tmp/billing-web-shots';

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** daisyUI fades a dropdown in: wait for it to be fully shown before a screenshot. */
async function settled(menu: Locator): Promise<void> {
  await expect.poll(async () => await menu.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
}

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

describe('settings, changelog, payment pages and header', () => {
  // 'Translate to' is offered only where an AI model is configured; no test here generates anything, so
  // the model's address is never called.
  // Support and Anonymous feedback show only where the deployment names their pages.
  const web = webAppAndBrowser({
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    SUPPORT_URL: 'mailto:support@example.org',
    FEEDBACK_URL: 'https://feedback.example.org/mbox',
  });

  beforeAll(() => mkdir(SHOTS, { recursive: true }));

  it('Summary tab: disabled with the premium notice for a Basic user', async () => {
    for (const [size, viewport] of [['1280', VIEWPORTS.desktop], ['390', VIEWPORTS.phone]] as const) {
      const { context, page } = await openSignedIn(web.browser, web.app, { email: 'basic@example.com', path: '/settings?tab=summary', viewport });
      const depth = page.getByLabel('How deep to analyze meetings?');
      await depth.waitFor();
      expect(await page.getByTestId('upgrade-card').innerText()).toContain('Premium Feature');
      expect(await depth.isDisabled()).toBe(true);
      expect(await page.getByLabel('Translate to').isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true);
      await shoot(page, `settings-summary-free-${size}`);
      await context.close();
    }
  });

  it('Summary tab: a premium user saves the defaults, lengths settled by product.md, Validation; they persist after reload', async () => {
    await web.app.signIn('deep@example.com');
    await makePremium(web.app, 'deep@example.com');
    const { context, page, token } = await openSignedIn(web.browser, web.app, { email: 'deep@example.com', path: '/settings?tab=summary' });
    const depth = page.getByLabel('How deep to analyze meetings?');
    await expect.poll(async () => await depth.isEnabled()).toBe(true);

    await depth.selectOption({ label: 'By speaker' });
    const languages = await page.getByLabel('Translate to').locator('option').allInnerTexts();
    expect(languages.slice(0, 5)).toEqual(['No translation', '🇬🇧 English', '🇺🇦 Ukrainian', '🇫🇷 French', '🇵🇱 Polish']);
    expect(languages).toHaveLength(30);
    await page.getByLabel('Translate to').selectOption('ua');
    const min = page.getByLabel('Min summary length (words)');
    await min.fill('12.5');
    await min.blur();
    expect(await min.inputValue()).toBe('50');
    await min.fill('320');
    await min.blur();
    expect(await min.inputValue()).toBe('300');
    const max = page.getByLabel('Max summary length (words)');
    expect(await max.getAttribute('min')).toBe('300');
    await max.fill('120');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await toast(page, SETTINGS_UPDATED).waitFor();
    expect(await max.inputValue()).toBe('300');

    const stored = await web.app.rest<Record<string, unknown>>('GET', '/v1/user-settings', { token });
    expect(stored.body).toMatchObject({
      defaultSummaryDepth: 'speaker',
      defaultTranslateTo: 'ua',
      defaultMinSummaryLength: 300,
      defaultMaxSummaryLength: 300,
    });
    await page.reload();
    await expect.poll(async () => await page.getByLabel('How deep to analyze meetings?').inputValue()).toBe('speaker');
    expect(await page.getByLabel('Translate to').inputValue()).toBe('ua');
    expect(await page.getByLabel('Min summary length (words)').inputValue()).toBe('300');
    expect(await page.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true);
    await shoot(page, 'settings-summary-premium-1280');
    await page.setViewportSize(VIEWPORTS.phone);
    await shoot(page, 'settings-summary-premium-390');
    await context.close();
  });

  it('/changelog: versions with dates and typed, nested changes; the error text when the call fails', async () => {
    const { context, page } = await openSignedIn(web.browser, web.app, { email: 'log@example.com', path: '/changelog' });
    const releases = page.getByTestId('release');
    await releases.first().waitFor();
    const first = releases.first();
    expect(await first.getByRole('heading').innerText()).toMatch(/^Version \d+\.\d+\.\d+$/);
    expect(await first.locator('time').innerText()).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    const badges = await page.getByTestId('change').locator('.badge').allInnerTexts();
    expect(new Set(badges).size).toBeGreaterThan(0);
    for (const badge of badges) expect(['New', 'Improvement', 'Fix']).toContain(badge);
    // Nested sub-changes sit inside their parent change.
    expect(await page.getByTestId('change').getByTestId('change').count()).toBeGreaterThan(0);
    await shoot(page, 'changelog-1280');
    await page.setViewportSize(VIEWPORTS.phone);
    await shoot(page, 'changelog-390');

    await page.route('**/trpc/changelog.list**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
    await page.reload();
    await expect.poll(async () => await page.getByRole('alert').innerText()).toBe(CHANGELOG_ERROR);
    await context.close();
  });

  it('payment pages: the documented texts and the way to the Account tab', async () => {
    for (const [size, viewport] of [['1280', VIEWPORTS.desktop], ['390', VIEWPORTS.phone]] as const) {
      const { context, page } = await openSignedIn(web.browser, web.app, { email: 'pay@example.com', path: '/payment-failed', viewport });
      await page.getByRole('heading', { name: 'Payment Failed!' }).waitFor();
      expect(await page.getByText(PAYMENT_FAILED).count()).toBe(1);
      await shoot(page, `payment-failed-${size}`);
      // The success page confirms a payment that made the account premium.
      await makePremium(web.app, 'pay@example.com');
      await page.goto(`${web.app.url}/payment-succeeded`);
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
      await shoot(page, `payment-succeeded-${size}`);
      await page.getByRole('link', { name: 'Go to Your Account' }).click();
      await page.waitForURL((url) => url.pathname === '/settings' && url.search === '?tab=account');
      await context.close();
    }
  });

  it('header: Premium label and the More menu (Settings, Support, ChangeLog, Anonymous feedback)', async () => {
    await web.app.signIn('menu@example.com');
    await makePremium(web.app, 'menu@example.com');
    const { context, page } = await openSignedIn(web.browser, web.app, { email: 'menu@example.com', path: '/changelog' });
    const header = page.getByRole('banner');
    await header.getByText('Premium', { exact: true }).waitFor();
    // The page settles first: a click while the bar still moves can miss the toggle.
    await page.getByTestId('release').first().waitFor();
    await header.getByText('More').click();
    const more = header.getByRole('navigation', { name: 'Main menu' }).locator('.dropdown-content');
    await more.getByRole('link', { name: 'Settings' }).waitFor();
    expect((await more.locator('li').allInnerTexts()).map((t) => t.trim())).toEqual([
      'Settings',
      'Support',
      'ChangeLog',
      'Anonymous feedback',
    ]);
    await settled(more);
    await shoot(page, 'header-more-1280');
    await more.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL((url) => url.pathname === '/settings');

    await page.setViewportSize(VIEWPORTS.phone);
    await header.getByLabel('Open menu').click();
    await header.getByRole('link', { name: 'ChangeLog' }).waitFor();
    await settled(header.locator('details.dropdown[open] > .dropdown-content').first());
    await shoot(page, 'header-menu-390');
    await context.close();
  });
});
