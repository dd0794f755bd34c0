import type { BrowserContext, Page, Worker } from 'playwright-core';
import { EXTENSION_ID } from './browser.js';

/** The fake Meet page's API (tests/fixtures/meet), on its window. */
export interface FakeMeet {
  say(speaker: string, text: string, options?: { newBlock?: boolean }): Promise<void>;
  idle(): Promise<void>;
  captionsOff(): Promise<void>;
  captionsOn(): Promise<void>;
}
/** The fake Meet's window, for page.evaluate (typed here, not on Window: other specs type it their way). */
export interface MeetWindow {
  __meet: FakeMeet;
}
interface WorkerDebug {
  mboxDebug: { flush(): Promise<unknown> };
}

/** Opens the fake Meet call and waits for its API. */
export async function openMeet(context: BrowserContext): Promise<Page> {
  const meet = await context.newPage();
  await meet.goto('https://meet.google.com/abc-defg-hij');
  await meet.waitForFunction(() => Boolean((window as unknown as Partial<MeetWindow>).__meet));
  return meet;
}

/** The Meet tab's id, as Chrome's tabs API gives it to the extension. */
export async function meetTabId(worker: Worker): Promise<number> {
  const tabId = await worker.evaluate(async () => {
    const { tabs } = (globalThis as unknown as { chrome: { tabs: { query(q: { url: string }): Promise<{ id?: number }[]> } } }).chrome;
    return (await tabs.query({ url: 'https://meet.google.com/*' }))[0]?.id;
  });
  if (typeof tabId !== 'number') throw new Error('no Meet tab');
  return tabId;
}

/** The popup as a page: `popup.html?tab=<id>` renders exactly what the toolbar popup shows for that tab. */
export const popupUrl = (tabId: number) => `chrome-extension://${EXTENSION_ID}/popup.html?tab=${tabId}`;

/** The popup of the Meet tab, in a page of the popup's size. */
export async function openPopupOfMeet(context: BrowserContext, worker: Worker): Promise<Page> {
  const popup = await context.newPage();
  await popup.setViewportSize({ width: 348, height: 620 });
  await popup.goto(popupUrl(await meetTabId(worker)));
  return popup;
}

/** Sends the extension's outbox now. */
export function flushOutbox(worker: Worker): Promise<unknown> {
  return worker.evaluate(() => (globalThis as unknown as WorkerDebug).mboxDebug.flush());
}
