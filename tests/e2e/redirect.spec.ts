import { describe, expect, it } from 'vitest';
import { LOGIN_LOCAL } from '@mbox/shared/ui-messages';
import { openSignedIn, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

/**
 * The `redirect` parameter of /login and the signed-in guards, in Chromium: paths of the app are
 * followed, anything else lands on / (never another origin, never the error screen).
 */
describe('redirect targets', () => {
  const web = webAppAndBrowser();

  it('follows in-app targets and sends the rest to /, without a crash', async () => {
    const { context, page } = await openSignedIn(web.browser, web.app);
    const hosts = new Set<string>();
    context.on('request', (request) => hosts.add(new URL(request.url()).host));
    try {
      await page.goto(`${web.app.url}/login?redirect=subscribe`);
      await page.waitForURL((url) => url.pathname === '/subscribe', { timeout: 20_000 });

      for (const target of ['/.//evil.test', '//evil.test', '/\\evil.test', 'https://evil.test/x', '/%2e//evil.test']) {
        await page.goto(`${web.app.url}/login?redirect=${encodeURIComponent(target)}`);
        await page.waitForURL((url) => url.pathname === '/' && url.search === '', { timeout: 20_000 });
        // The dashboard, not the error screen the router's own guard used to end in.
        await page.getByRole('navigation').first().waitFor({ timeout: 20_000 });
        expect(await page.getByText('Something went wrong').count(), target).toBe(0);
        expect(new URL(page.url()).host, target).toBe(new URL(web.app.url).host);
      }
      // A signed-in page with the parameter goes the same way.
      await page.goto(`${web.app.url}/settings?redirect=${encodeURIComponent('/.//evil.test')}`);
      await page.waitForURL((url) => url.pathname === '/' && url.search === '', { timeout: 20_000 });
      expect(await page.getByText('Something went wrong').count()).toBe(0);
      expect([...hosts].filter((host) => host.includes('evil'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the login screen to a signed-out visitor with a foreign target, and signs in to the app', async () => {
    const context = await web.browser.newContext({ viewport: VIEWPORTS.desktop });
    try {
      const page = await context.newPage();
      await page.goto(`${web.app.url}/login?redirect=${encodeURIComponent('/.//evil.test')}`);
      await page.getByRole('button', { name: LOGIN_LOCAL }).click({ timeout: 20_000 });
      // A new account is sent on to onboarding: in any case a page of this app, not the error screen.
      await page.waitForURL((url) => url.pathname === '/' || url.pathname.startsWith('/onboarding'), { timeout: 20_000 });
      expect(new URL(page.url()).host).toBe(new URL(web.app.url).host);
      expect(await page.getByText('Something went wrong').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
