import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openSignedIn, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

const SUPPORT = 'https://help.example.org/mbox';
const FEEDBACK = 'https://forms.example.org/mbox-feedback';

/** Opens the More menu (desktop) or the phone menu and answers the menu's list. */
async function openMenu(page: Page, phone: boolean) {
  if (phone) {
    await page.getByLabel('Open menu').click();
    return page.locator('details[open] > ul');
  }
  await page.getByRole('navigation', { name: 'Main menu' }).getByText('More', { exact: true }).click();
  return page.getByRole('navigation', { name: 'Main menu' }).locator('details[open] > ul');
}

describe('More menu: Support and Anonymous feedback are the server\'s runtime settings', () => {
  describe('set on the server', () => {
    const web = webAppAndBrowser({ SUPPORT_URL: SUPPORT, FEEDBACK_URL: FEEDBACK });

    it('shows both as external links opening in a new tab, at 1280 and 390 px', { timeout: 60_000 }, async () => {
      for (const [phone, viewport] of [[false, VIEWPORTS.desktop], [true, VIEWPORTS.phone]] as const) {
        const { context, page } = await openSignedIn(web.browser, web.app, { email: 'menu@example.com', path: '/settings', viewport });
        const menu = await openMenu(page, phone);
        for (const [name, href] of [['Support', SUPPORT], ['Anonymous feedback', FEEDBACK]] as const) {
          const link = menu.getByRole('link', { name, exact: true });
          await link.waitFor();
          expect([await link.getAttribute('href'), await link.getAttribute('target'), await link.getAttribute('rel')]).toEqual([
            href,
            '_blank',
            'noopener noreferrer',
          ]);
        }
        await context.close();
      }
    });
  });

  describe('not set', () => {
    const web = webAppAndBrowser();

    it('leaves both out: no greyed-out entries', { timeout: 60_000 }, async () => {
      const { context, page } = await openSignedIn(web.browser, web.app, { email: 'menu@example.com', path: '/settings' });
      const menu = await openMenu(page, false);
      await menu.getByRole('link', { name: 'ChangeLog' }).waitFor();
      expect(await menu.getByText('Support').count()).toBe(0);
      expect(await menu.getByText('Anonymous feedback').count()).toBe(0);
      await context.close();
    });
  });
});
