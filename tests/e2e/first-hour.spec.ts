import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LOCAL } from '@mbox/shared/ui-messages';
import { CHROMIUM_ARGS, chromiumPath, openSignedIn, VIEWPORTS, webAppAndBrowser } from './support/browser.js';
import type { TestApp } from '../../apps/server/src/test/app.js';

/**
 * What a new user touches first, in Chromium against the real server: deep links through sign-in and
 * onboarding, the login card's reasons, a local account of any address the form takes, an unknown
 * meeting's address, the menu on a meeting's page.
 */

/** A host name that reaches the test server but is not a loopback name: the app "opened from the network". */
const LAN_HOST = 'mbox-lan.test';

/** Posts a meeting of two lines as the extension does; answers its key and its lines' keys. */
async function postMeeting(app: TestApp, token: string, sessionId: string): Promise<{ key: string; lines: string[] }> {
  const startedAt = Date.now() - 10 * 60_000;
  const posted = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
    token,
    body: {
      meeting: { sessionId, meetCode: 'abc-defg-hij', title: `Planning ${sessionId}`, startedAt },
      lines: [
        { captionId: 'c1', revision: 0, speaker: 'Ana', text: 'Welcome to the planning call', spokenAt: startedAt, final: true },
        { captionId: 'c2', revision: 0, speaker: 'Bo', text: 'The second line, linked from a recap', spokenAt: startedAt + 5000, final: true },
      ],
    },
  });
  expect(posted.status).toBe(200);
  const page = await app.rest<{ messages: { key: string }[] }>('GET', `/v1/meeting/${posted.body.meetingKey}/messages`, { token });
  return { key: posted.body.meetingKey, lines: page.body.messages.map((m) => m.key) };
}

async function signInOnLoginCard(page: Page, email: string): Promise<void> {
  await page.getByLabel('E-mail of a local account (optional)').fill(email, { timeout: 20_000 });
  await page.getByRole('button', { name: LOGIN_LOCAL }).click();
}

/** Console errors and failed answers of a page, from now on. */
function watchFailures(page: Page): { errors: string[]; failed: string[] } {
  const seen = { errors: [] as string[], failed: [] as string[] };
  page.on('console', (message) => {
    if (message.type() === 'error') seen.errors.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) seen.failed.push(`${response.status()} ${response.url()}`);
  });
  return seen;
}

describe('the first hour', () => {
  const web = webAppAndBrowser({ ALLOWED_HOSTS: [LAN_HOST] });

  it('keeps a deep link, path and query, through sign-in and onboarding, then opens it', async () => {
    const email = 'recap-reader@example.com';
    const token = await web.app.signIn(email);
    const meeting = await postMeeting(web.app, token, 'deep-link');
    const line = meeting.lines[1]!;

    // A recap e-mail's link, opened with no session: the login card, then onboarding (a new account).
    const context = await web.browser.newContext({ viewport: VIEWPORTS.desktop });
    try {
      const page = await context.newPage();
      await page.goto(`${web.app.url}/${meeting.key}?line=${line}`);
      await page.waitForURL((url) => url.pathname === '/login', { timeout: 20_000 });
      expect(new URL(page.url()).searchParams.get('redirect')).toBe(`/${meeting.key}?line=${line}`);
      await signInOnLoginCard(page, email);
      await page.waitForURL((url) => url.pathname.startsWith('/onboarding'), { timeout: 20_000 });
      // Onboarding's steps carry the target along.
      await page.getByRole('link', { name: 'Next' }).click();
      await page.getByRole('heading', { name: 'Join a meeting' }).waitFor();
      await page.getByRole('button', { name: 'Skip onboarding' }).click();
      await page.waitForURL((url) => url.pathname === `/${meeting.key}`, { timeout: 20_000 });
      expect(new URL(page.url()).search).toBe(`?line=${line}`);
      await page.getByText('The second line, linked from a recap').first().waitFor({ timeout: 20_000 });

      // Signed out again (the session expired), an onboarded user goes straight back to the page asked for.
      await context.clearCookies();
      await page.goto(`${web.app.url}/settings?tab=summary`);
      await page.waitForURL((url) => url.pathname === '/login', { timeout: 20_000 });
      await signInOnLoginCard(page, email);
      await page.waitForURL((url) => url.pathname === '/settings', { timeout: 20_000 });
      expect(new URL(page.url()).search).toBe('?tab=summary');
      await page.getByText('How deep to analyze meetings?').waitFor({ timeout: 20_000 });
    } finally {
      await context.close();
    }
  });

  it('signs in a local account at any address the form accepts, newbie@localhost too', async () => {
    const context = await web.browser.newContext({ viewport: VIEWPORTS.desktop });
    try {
      const page = await context.newPage();
      await page.goto(`${web.app.url}/login`);
      await signInOnLoginCard(page, 'newbie@localhost');
      await page.waitForURL((url) => url.pathname.startsWith('/onboarding'), { timeout: 20_000 });
      const me = await context.request.get(`${web.app.url}/v1/auth/me`);
      expect(((await me.json()) as { email: string }).email).toBe('newbie@localhost');
    } finally {
      await context.close();
    }
  });

  describe('opened from the network, not from this machine', () => {
    let lanBrowser: Browser;
    beforeAll(async () => {
      lanBrowser = await chromium.launch({
        executablePath: chromiumPath,
        headless: true,
        args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${LAN_HOST} 127.0.0.1`],
      });
    });
    afterAll(() => lanBrowser?.close());

    it("says in the login card why local sign-in was refused, in the server's words", async () => {
      const context = await lanBrowser.newContext({ viewport: VIEWPORTS.phone });
      try {
        const page = await context.newPage();
        const lanUrl = web.app.url.replace('127.0.0.1', LAN_HOST);
        await page.goto(`${lanUrl}/login`);
        await page.getByRole('button', { name: LOGIN_LOCAL }).click({ timeout: 20_000 });
        const reason = page.getByRole('alert');
        await reason.waitFor({ timeout: 20_000 });
        expect(await reason.innerText()).toMatch(/^Local sign-in is only allowed from this machine/);
        // Still on the login screen, the button ready for another try.
        expect(new URL(page.url()).pathname).toBe('/login');
        expect(await page.getByRole('button', { name: LOGIN_LOCAL }).isEnabled()).toBe(true);
      } finally {
        await context.close();
      }
    });
  });

  it('shows one not-found view for an unknown meeting: no summary panel, no failed calls, a way back', async () => {
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      const { context, page } = await openSignedIn(web.browser, web.app, { email: 'lost@example.com', viewport });
      try {
        const seen = watchFailures(page);
        await page.goto(`${web.app.url}/no-such-meeting`);
        await page.getByRole('heading', { name: 'Meeting not found' }).waitFor({ timeout: 20_000 });
        // Give late calls (panels, streams) time to show up if anything still made them.
        await page.waitForTimeout(1500);
        expect(await page.getByTestId('transcript-placeholder').count()).toBe(0);
        expect(await page.getByRole('tab').count()).toBe(0);
        expect(await page.getByRole('combobox').count()).toBe(0);
        expect(await page.getByTestId('summary-content').count()).toBe(0);
        expect(seen.failed, JSON.stringify(viewport)).toEqual([]);
        expect(seen.errors, JSON.stringify(viewport)).toEqual([]);
        await page.getByRole('link', { name: 'Back to your meetings' }).click();
        await page.waitForURL((url) => url.pathname === '/', { timeout: 20_000 });
      } finally {
        await context.close();
      }
    }
  });

  it("keeps 'Last meetings' highlighted in the menu while a meeting is open", async () => {
    const email = 'menu@example.com';
    const token = await web.app.signIn(email);
    const meeting = await postMeeting(web.app, token, 'menu');
    const { context, page } = await openSignedIn(web.browser, web.app, { email, path: `/${meeting.key}` });
    try {
      await page.getByText('Welcome to the planning call').first().waitFor({ timeout: 20_000 });
      const menu = page.getByRole('navigation', { name: 'Main menu' });
      const lastMeetings = menu.getByRole('link', { name: 'Last meetings' });
      expect(await lastMeetings.getAttribute('class')).toContain('menu-active');
      expect(await menu.getByRole('link', { name: /AI Tools/ }).getAttribute('class')).not.toContain('menu-active');
      // And not on a page of its own.
      await menu.getByRole('link', { name: /AI Tools/ }).click();
      await page.waitForURL((url) => url.pathname === '/tools');
      await expect.poll(() => lastMeetings.getAttribute('class')).not.toContain('menu-active');
    } finally {
      await context.close();
    }
  });
});
