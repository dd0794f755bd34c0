import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LOCAL } from '@mbox/shared/ui-messages';
import {
  launchBrowser,
  launchWithExtension,
  openSignedIn,
  setExtensionServer,
  startWebApp,
  VIEWPORTS,
  type ExtensionBrowser,
} from './support/browser.js';
import type { TestApp } from '../../apps/server/src/test/app.js';

/**
 * The first run leads to the extension, the only way meetings arrive: the empty state and onboarding
 * say whether the built extension is connected to this server (the handshake's answer) and, until it
 * is, link the extension page; they notice the connection without a reload.
 */

/** The service worker's test hook (the fields read here). */
interface WorkerDebug {
  mboxDebug: { state(): Promise<{ account: { user: { email: string } } | null }> };
}

const status = (page: Page) => page.getByTestId('extension-status');

async function waitForState(page: Page, state: string): Promise<void> {
  try {
    await page.waitForFunction(
      (wanted) => document.querySelector('[data-testid="extension-status"]')?.getAttribute('data-state') === wanted,
      state,
      { timeout: 20_000 },
    );
  } catch (error) {
    const shown = await status(page).getAttribute('data-state').catch(() => 'no status shown');
    throw new Error(`extension status ${shown}, expected ${state}`, { cause: error });
  }
}

describe('the extension on the first run', () => {
  let app: TestApp;
  let plain: Browser;
  let withExtension: ExtensionBrowser;

  beforeAll(async () => {
    app = await startWebApp();
    plain = await launchBrowser();
    withExtension = await launchWithExtension();
  });
  afterAll(async () => {
    await withExtension?.close();
    await plain?.close();
    await app?.close();
  });

  it('without the extension, one empty state (desktop and phone) links the extension page', async () => {
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      const { context, page } = await openSignedIn(plain, app, { email: 'no-extension@example.com', viewport });
      try {
        await page.getByText('No meetings (yet)').first().waitFor({ timeout: 20_000 });
        await waitForState(page, 'missing');
        expect(await page.getByTestId('meetings-empty').count(), JSON.stringify(viewport)).toBe(1);
        const install = status(page).getByRole('link', { name: 'Install the extension' });
        expect(await install.getAttribute('href')).toBe('/extension');
        // The dashboard's own page leads there too on the first run.
        await page.goto(`${app.url}/dashboard`);
        await waitForState(page, 'missing');
        expect(await page.getByTestId('meetings-empty').count()).toBe(1);
      } finally {
        await context.close();
      }
    }
  });

  it('onboarding shows whether the extension is connected, and "Connected" once it has its token', async () => {
    const { context, worker } = withExtension;
    const page = await context.newPage();
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto(`${app.url}/login`);
    await page.getByLabel('E-mail of a local account (optional)').fill('ext-first@example.com', { timeout: 20_000 });
    await page.getByRole('button', { name: LOGIN_LOCAL }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/onboarding'), { timeout: 20_000 });
    await page.getByRole('link', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Join a meeting' }).waitFor();

    // Installed, but set to another server (the default one, not this test server's port).
    await waitForState(page, 'not-connected');
    expect(await status(page).innerText()).toContain('installed but not connected to this server');
    expect(await status(page).getByRole('link', { name: 'Connect the extension' }).getAttribute('href')).toBe('/extension');

    // The user sets this server in the extension's popup: the open step notices, hands the token over.
    await setExtensionServer(context, app.url);
    await page.bringToFront();
    await waitForState(page, 'connected');
    expect(await status(page).getByText('Connected', { exact: true }).isVisible()).toBe(true);
    const { account } = await worker.evaluate(() => (globalThis as unknown as WorkerDebug).mboxDebug.state());
    expect(account?.user.email).toBe('ext-first@example.com');

    // The first run of '/' says the same, once.
    await page.getByRole('button', { name: 'Skip onboarding' }).click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 20_000 });
    // The onboarding step's status stays on screen until the lazy '/' page replaces it: wait for '/' itself.
    await page.getByTestId('meetings-empty').first().waitFor({ timeout: 20_000 });
    await waitForState(page, 'connected');
    expect(await page.getByTestId('meetings-empty').count()).toBe(1);
    await page.close();
  });
});
