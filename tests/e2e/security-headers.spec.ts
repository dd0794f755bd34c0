import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { seedMeeting } from '../../apps/server/src/test/fixtures.js';
import { launchBrowser, signInThroughWebApp, startWebApp } from './support/browser.js';

declare global {
  interface Window {
    cspViolations?: string[];
  }
}

/** Every CSP violation a page reports, from the DOM event and from the console. */
async function watchViolations(context: BrowserContext): Promise<() => Promise<string[]>> {
  const consoleViolations: string[] = [];
  await context.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.cspViolations!.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  const pages: Page[] = [];
  const watch = (page: Page) => {
    pages.push(page);
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/.test(m.text())) consoleViolations.push(m.text());
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  return async () => {
    const fromPages = await Promise.all(pages.filter((p) => !p.isClosed()).map((p) => p.evaluate(() => window.cspViolations ?? [])));
    return [...consoleViolations, ...fromPages.flat()];
  };
}

describe('security headers in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startWebApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('signs in and shows every main screen with no CSP violation', { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const violations = await watchViolations(context);
    const page = await signInThroughWebApp(context, app.url);
    // The account the login screen's local sign-in uses (an empty body), with a meeting to open.
    const { body } = await app.rest<{ token: string }>('POST', '/v1/auth/login', { rawBody: '' });
    const { meetingKey } = await seedMeeting(app, body.token, 'csp', [
      { speaker: 'Ana', text: 'Styles and scripts all come from this server.' },
      { speaker: 'Bo', text: 'And nothing inline runs.' },
    ], Date.now() - 3_600_000);

    await page.goto(`${app.url}/${meetingKey}`);
    await expect.poll(async () => await page.getByText('And nothing inline runs.').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const screens: [string, () => ReturnType<Page['locator']>][] = [
      ['/dashboard', () => page.getByRole('heading', { name: 'Dashboard' })],
      ['/settings', () => page.getByRole('tab')],
      ['/tools', () => page.getByRole('heading', { level: 1 })],
      ['/changelog', () => page.getByRole('heading', { name: /^Version / })],
    ];
    for (const [path, content] of screens) {
      await page.goto(`${app.url}${path}`);
      await expect.poll(async () => await content().count(), { timeout: 20_000 }).toBeGreaterThan(0);
    }
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('logs no Permissions-Policy error: the header names only features Chromium knows', { timeout: 60_000 }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const messages: string[] = [];
    page.on('console', (m) => messages.push(m.text()));
    for (const path of ['/login', '/public']) {
      await page.goto(`${app.url}${path}`);
      await page.getByRole('heading').first().waitFor();
    }
    expect(messages.filter((m) => m.includes('Permissions-Policy'))).toEqual([]);
    await context.close();
  });

  it('cannot be framed by another page', { timeout: 60_000 }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const messages: string[] = [];
    page.on('console', (m) => messages.push(m.text()));
    await page.setContent(`<iframe src="${app.url}/login" width="600" height="400"></iframe>`);
    await expect.poll(() => messages.some((m) => m.includes('frame-ancestors')), { timeout: 20_000 }).toBe(true);
    await context.close();
  });
});
