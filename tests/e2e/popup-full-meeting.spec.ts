import type { BrowserContext, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../apps/server/src/test/app.js';
import { launchWithExtension, signInThroughWebApp, webDist, type ExtensionBrowser } from './support/browser.js';
import { flushOutbox, openMeet, openPopupOfMeet, type MeetWindow } from './support/popup.js';

/**
 * A meeting past the server's size bound, in Chromium with the built extension and the real server (its
 * bound set to 2 lines): the server answers 413, the popup shows its message, and the lines it refused
 * stay in the extension, with those that come after.
 */

const MESSAGE = 'Meeting too long: at most 2 lines per meeting (MAX_LINES_PER_MEETING); none of these lines was stored';

describe('the popup when the server takes no more lines of a meeting', () => {
  let app: TestApp;
  let context: BrowserContext;
  let worker: Worker;
  let browser: ExtensionBrowser;
  let popup: Page;
  let meet: Page;

  beforeAll(async () => {
    app = await startTestApp({ MAX_LINES_PER_MEETING: 2 }, { webDist });
    browser = await launchWithExtension();
    ({ context, worker } = browser);
    await signInThroughWebApp(context, app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const flush = () => flushOutbox(worker);
  const text = (testId: string) => popup.getByTestId(testId).textContent();
  const say = (speaker: string, words: string) =>
    meet.evaluate(([s, w]) => (window as unknown as MeetWindow).__meet.say(s!, w!, { newBlock: true }), [speaker, words]);
  const storedLines = async () => (await app.deps.db.message.findMany({ select: { text: true } })).length;

  it('shows the 413 message and keeps the refused lines without sending them again', async () => {
    meet = await openMeet(context);
    popup = await openPopupOfMeet(context, worker);

    await say('Alice Example', 'Good morning everyone, shall we start?');
    await say('Bob Builder', 'Yes, the numbers are in.');
    await meet.evaluate(() => (window as unknown as MeetWindow).__meet.idle());
    await flush();
    await expect.poll(() => text('lines'), { timeout: 10_000 }).toMatch(/^2 lines sent/);
    expect(await storedLines()).toBe(2);

    await say('Alice Example', 'Then one more thing about the budget.');
    await meet.evaluate(() => (window as unknown as MeetWindow).__meet.idle());
    await expect.poll(async () => (await flush(), text('health-alert')), { timeout: 15_000 }).toContain(MESSAGE);
    expect(await text('health-alert')).toBe(
      `The server takes no more lines of this meeting: server refused (413: ${MESSAGE}). New lines are kept in the extension.`,
    );
    // The new line, and the last revision of the line before it (Meet rewrote it as the next one began).
    const kept = async () => Number(/^2 lines sent, (\d+) kept: the server takes no more$/.exec((await text('lines')) ?? '')?.[1]);
    const before = await kept();
    expect(before).toBeGreaterThanOrEqual(1);
    expect(await text('set-asides')).toBe(
      `Kept, not sent: ${before} line${before === 1 ? '' : 's'} of a meeting the server takes no more lines of (server refused (413: ${MESSAGE})); sent again when you retry.`,
    );
    expect(await popup.locator('#set-aside-box').isVisible()).toBe(true);

    // More words: kept with the others (sender.test.ts shows no request is made for them).
    await say('Bob Builder', 'And the offsite, who books the venue?');
    await meet.evaluate(() => (window as unknown as MeetWindow).__meet.idle());
    await expect.poll(kept, { timeout: 10_000 }).toBeGreaterThan(before);
    await flush();
    expect(await kept()).toBeGreaterThan(before);
    expect(await storedLines()).toBe(2);
  });
});
