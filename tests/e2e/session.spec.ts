import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LOCAL } from '@mbox/shared/ui-messages';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { openSignedIn, signInThroughWebApp, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

/** Where the screenshots go (looked at by hand; not committed by this test). */
const SHOTS = process.env.SESSION_SHOTS_DIR ?? '/tmp/auth-shots';

/** A meeting of one line, posted as the extension does. */
async function postMeeting(app: TestApp, token: string, sessionId: string, title: string): Promise<void> {
  const startedAt = Date.now() - 60_000;
  const ingest = await app.rest('POST', '/v1/transcript/lines', {
    token,
    body: {
      meeting: { sessionId, meetCode: 'abc-defg-hij', title, startedAt },
      lines: [{ captionId: 'c1', revision: 0, speaker: 'Ana', text: 'Streaming without a token in the URL', spokenAt: startedAt, final: true }],
    },
  });
  expect(ingest.status).toBe(200);
}

describe('web session: cookies, not readable tokens', () => {
  const web = webAppAndBrowser();

  beforeAll(() => mkdir(SHOTS, { recursive: true }));

  it('keeps the session in httpOnly cookies, streams by cookie, refreshes, and signs out everywhere', async () => {
    const context = await web.browser.newContext({ viewport: VIEWPORTS.desktop });
    const urls: string[] = [];
    context.on('request', (request) => urls.push(request.url()));
    const page = await signInThroughWebApp(context, web.app.url);

    // Nothing a page script can read carries a credential: no token in storage, only the CSRF cookie.
    const visible = await page.evaluate(() => ({ cookie: document.cookie, storage: JSON.stringify({ ...localStorage }) }));
    expect(visible.cookie).toMatch(/^mbox_csrf=[\w-]+$/);
    expect(visible.storage).not.toMatch(/token|eyJ/i);
    const cookies = await context.cookies();
    const access = cookies.find((c) => c.name === 'mbox_access');
    expect(access).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookies.find((c) => c.name === 'mbox_refresh')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v1/auth/refresh' });

    // A meeting that arrives while the dashboard is open shows up live: the SSE stream is signed in by cookie.
    // The login screen signed in the default local account; an empty body signs in the same one.
    const token = (await web.app.rest<{ token: string }>('POST', '/v1/auth/login', { body: {} })).body.token;
    await postMeeting(web.app, token, 'live-cookie', 'Live by cookie');
    await page.getByText('Live by cookie').first().waitFor({ timeout: 20_000 });

    // The access cookie is gone (as after its 15 minutes): the app refreshes the session and goes on.
    await context.clearCookies({ name: 'mbox_access' });
    await page.goto(`${web.app.url}/settings?tab=account`);
    const sessions = page.getByRole('list', { name: 'Signed-in sessions' });
    await sessions.waitFor({ timeout: 20_000 });
    expect((await context.cookies()).some((c) => c.name === 'mbox_access')).toBe(true);
    expect(urls.some((url) => url.endsWith('/v1/auth/refresh'))).toBe(true);

    await sessions.getByText('This browser').waitFor();
    // Two sessions: this browser and the API session of the test.
    expect(await sessions.getByRole('listitem').count()).toBe(2);
    // The page scrolls inside the layout: shoot the two sections themselves.
    const sections = [page.getByRole('region', { name: 'Where you are signed in' }), page.getByRole('region', { name: 'Connected extensions' })];
    for (const [size, viewport] of [['1280', VIEWPORTS.desktop], ['390', VIEWPORTS.phone]] as const) {
      await page.setViewportSize(viewport);
      for (const [index, name] of ['sessions', 'extensions'].entries()) {
        await sections[index]?.scrollIntoViewIfNeeded();
        await sections[index]?.screenshot({ path: path.join(SHOTS, `account-${name}-${size}.png`) });
      }
    }
    await page.setViewportSize(VIEWPORTS.desktop);

    // No call put a credential in its URL (the old SSE link sent it as connectionParams).
    expect(urls.filter((url) => /connectionParams|token=|mbox_rt_|eyJ/.test(url))).toEqual([]);

    await page.getByRole('button', { name: 'Sign out everywhere' }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('button', { name: LOGIN_LOCAL }).waitFor({ timeout: 20_000 });
    // Every session ended on the server, the API one too, and the browser holds no session cookie.
    expect((await web.app.rest('GET', '/v1/auth/me', { token })).status).toBe(401);
    expect((await context.cookies()).map((c) => c.name)).toEqual([]);
    await context.close();
  });

  it('shows a meeting created while the list was being read and its stream was connecting', async () => {
    const { context, page, token } = await openSignedIn(web.browser, web.app, { email: 'late@example.com' });

    // The worst order: the list is read (empty) first, the meeting arrives, the stream listens only then,
    // and the list's answer reaches the page after the stream said it is connected.
    let ingested: () => void = () => {};
    const meetingArrived = new Promise<void>((resolve) => (ingested = resolve));
    let streamOpened: () => void = () => {};
    const streamListening = new Promise<void>((resolve) => (streamOpened = resolve));
    let listRead: () => void = () => {};
    const listAnswered = new Promise<void>((resolve) => (listRead = resolve));
    await page.route(/\/trpc\/[^?]*meeting\.grouped/, async (route) => {
      const response = await route.fetch();
      listRead();
      await meetingArrived;
      await streamListening;
      await route.fulfill({ response });
    });
    await page.route(/\/trpc\/meeting\.onChanged/, async (route) => {
      await meetingArrived;
      await route.continue();
    });
    page.on('response', (response) => {
      // The page reads the stream's "connected" a moment after its headers.
      if (/\/trpc\/meeting\.onChanged/.test(response.url())) setTimeout(streamOpened, 500);
    });

    await page.reload();
    await listAnswered;
    await postMeeting(web.app, token, 'while-connecting', 'Arrived while connecting');
    ingested();
    await page.getByText('Arrived while connecting').first().waitFor({ timeout: 20_000 });
    await context.close();
  });
});
