import path from 'node:path';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../apps/server/src/test/app.js';
import { EXTENSION_ID, launchWithExtension, signInThroughWebApp, webDist, type ExtensionBrowser } from './support/browser.js';
import { flushOutbox, meetTabId, openMeet, popupUrl, type MeetWindow } from './support/popup.js';

/**
 * The extension's popup in Chromium, against the real server and the fake Meet page: signed out, then
 * signed in by the web app's handshake; capturing a call; captions turned off (the gap reaches the
 * server and the web transcript); captions Meet renders in markup no selector knows (capture broken).
 * The popup is opened as a page (`popup.html?tab=<Meet tab id>`), which renders exactly what the
 * toolbar popup shows for that tab.
 */

const SCREENSHOTS = process.env.E2E_SCREENSHOTS;


describe('the extension popup', () => {
  let app: TestApp;
  let context: BrowserContext;
  let worker: Worker;
  let browser: ExtensionBrowser;
  let popup: Page;
  let web: Page;
  let meet: Page;

  beforeAll(async () => {
    app = await startTestApp({}, { webDist });
    browser = await launchWithExtension();
    ({ context, worker } = browser);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const flush = () => flushOutbox(worker);
  const text = (testId: string) => popup.getByTestId(testId).textContent();
  const shot = async (name: string) => {
    if (SCREENSHOTS) await popup.screenshot({ path: path.join(SCREENSHOTS, `popup-${name}.png`), fullPage: true });
  };

  it('shows signed out, then signed in after the web app hands over the account', async () => {
    popup = await context.newPage();
    await popup.setViewportSize({ width: 348, height: 620 });
    await popup.goto(`chrome-extension://${EXTENSION_ID}/popup.html`);
    await expect.poll(() => text('connection')).toBe('Signed out');
    expect(await text('user')).toMatch(/^Signed out\. Open the Mbox web app and sign in/);
    await shot('signed-out');

    web = await signInThroughWebApp(context, app.url);

    await expect.poll(() => text('connection'), { timeout: 15_000 }).toBe('Connected');
    expect(await text('user')).toMatch(/^Signed in as /);
    expect(await popup.getByTestId('server-origin').inputValue()).toBe(app.url);
  });

  it('follows a call: meeting, captions on, lines sent', async () => {
    meet = await openMeet(context);
    await popup.goto(popupUrl(await meetTabId(worker)));

    await meet.evaluate(() => (window as unknown as MeetWindow).__meet.say('Alice Example', 'Good morning everyone, shall we start?', { newBlock: true }));
    await meet.evaluate(() => (window as unknown as MeetWindow).__meet.say('Bob Builder', 'Yes, the numbers are in.', { newBlock: true }));
    await meet.evaluate(() => (window as unknown as MeetWindow).__meet.idle());
    await expect.poll(() => text('meeting'), { timeout: 10_000 }).toMatch(/abc-defg-hij/);
    expect(await text('captions')).toBe('On');
    expect(await text('region')).toBe('Found');
    await flush();
    await expect.poll(() => text('lines'), { timeout: 10_000 }).toMatch(/^2 lines sent/);
    expect(await text('last-line')).toMatch(/ (s|min) ago$/);
    await shot('capturing');
  });

  it('shows captions turned off live; the gap reaches the server and the web transcript', async () => {
    await web.getByTestId('meeting-item').first().click();
    await web.getByTestId('transcript-message').first().waitFor({ timeout: 20_000 });

    await meet.evaluate(() => (window as unknown as MeetWindow).__meet.captionsOff());
    await expect.poll(() => text('captions'), { timeout: 10_000 }).toBe('Off');
    expect(await text('health-alert')).toMatch(/^Captions are off/);
    // Once it lasts, the gap opens and shows in the popup's list.
    await expect.poll(() => text('gaps'), { timeout: 10_000 }).toMatch(/^Captions off since /);
    await shot('captions-off');
    await flush();
    await expect
      .poll(async () => (await app.deps.db.meetingEvent.findMany()).map((e) => [e.kind, e.endedAt]), { timeout: 10_000 })
      .toEqual([['captions-off', null]]);
    await expect.poll(() => web.getByTestId('transcript-gap').first().textContent(), { timeout: 15_000 }).toMatch(/^Captions off since /);

    await meet.evaluate(() => (window as unknown as MeetWindow).__meet.captionsOn());
    await expect.poll(() => text('captions'), { timeout: 10_000 }).toBe('On');
    await expect.poll(() => text('gaps'), { timeout: 10_000 }).toMatch(/^Captions were off /);
    await flush();
    await expect
      .poll(async () => (await app.deps.db.meetingEvent.findMany()).map((e) => [e.kind, e.endedAt !== null]), { timeout: 10_000 })
      .toEqual([['captions-off', true]]);
    await expect
      .poll(() => web.getByTestId('transcript-gap').first().textContent(), { timeout: 15_000 })
      .toMatch(/^Captions were off \d\d:\d\d [AP]M–\d\d:\d\d [AP]M$/);
    if (SCREENSHOTS) await web.screenshot({ path: path.join(SCREENSHOTS, 'web-transcript-gap.png') });
  });

  it('reports captions Meet renders in unknown markup as broken capture, not silence', async () => {
    // A Meet update renames every class: the region still shows captions, but no selector reads them.
    await meet.evaluate(() => {
      const region = document.querySelector('div[role="region"][tabindex="0"]');
      if (!region) throw new Error('caption region missing');
      const renamed = document.createElement('div');
      renamed.className = 'x9Zq2';
      renamed.innerHTML = '<div class="p0Lm"><span>Carol Jones</span></div><div class="r7Tw">We changed the whole layout.</div>';
      for (const block of Array.from(region.children).slice(0, -2)) block.remove();
      region.prepend(renamed);
    });
    await expect.poll(() => text('region'), { timeout: 10_000 }).toBe('Found, but unreadable');
    expect(await text('health-alert')).toMatch(/cannot read Meet's captions/);
    await expect.poll(() => text('gaps'), { timeout: 15_000 }).toMatch(/Captions unreadable since /);
    await shot('capture-broken');
    await flush();
    await expect
      .poll(async () => (await app.deps.db.meetingEvent.findMany({ where: { kind: 'capture-broken' } })).length, { timeout: 10_000 })
      .toBe(1);
  });
});
