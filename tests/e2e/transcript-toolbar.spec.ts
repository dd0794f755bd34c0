import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedMeeting } from '../../apps/server/src/test/fixtures.js';
import { openSignedIn, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

const LONG_NAME = 'Alexandra Konstantinopoulou-Smith';
const LINES = [
  { speaker: LONG_NAME, text: 'Let us start with the quarterly numbers before the break.' },
  { speaker: 'Bo Chen', text: 'Revenue is up eight percent, costs are flat.' },
  { speaker: LONG_NAME, text: 'Good. What about the hiring plan for the spring?' },
  { speaker: 'Bo Chen', text: 'Two engineers and one designer, starting in March.' },
];

const toolbars = (page: Page) => page.locator('[role="toolbar"][aria-label="Message actions"]');
const message = (page: Page, text: string) => page.getByTestId('transcript-message').filter({ hasText: text });

function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not laid out');
  return box;
}

describe('transcript line actions and filter on phones and narrow panels', () => {
  const web = webAppAndBrowser();

  async function openMeeting(email: string, viewport: { width: number; height: number }) {
    const signedIn = await openSignedIn(web.browser, web.app, { email, viewport });
    const { meetingKey } = await seedMeeting(web.app, signedIn.token, `toolbar-${email}`, LINES, Date.now() - 3_600_000);
    await signedIn.page.goto(`${web.app.url}/${meetingKey}`);
    await message(signedIn.page, 'starting in March').waitFor();
    return signedIn;
  }

  it('on a phone, no line carries a toolbar until one is tapped, and then only that line', { timeout: 60_000 }, async () => {
    const { context, page } = await openMeeting('phone@example.com', VIEWPORTS.phone);
    expect(await toolbars(page).count()).toBe(0);
    const tapped = message(page, 'costs are flat');
    await tapped.getByTestId('message-text').click();
    await expect.poll(async () => await toolbars(page).count()).toBe(1);
    expect(await tapped.locator('[role="toolbar"]').count()).toBe(1);
    // Its actions work: marking the line important.
    await tapped.getByRole('button', { name: 'Mark important' }).click();
    await expect.poll(async () => await tapped.getAttribute('data-marks')).toBe('important');
    // Another tap moves the one toolbar.
    await message(page, 'hiring plan').getByTestId('message-text').click();
    await expect.poll(async () => await message(page, 'hiring plan').locator('[role="toolbar"]').count()).toBe(1);
    expect(await toolbars(page).count()).toBe(1);
    await context.close();
  });

  it('on a phone, the filter panel opens whole on the screen', { timeout: 60_000 }, async () => {
    const { context, page } = await openMeeting('filter@example.com', VIEWPORTS.phone);
    await page.getByRole('button', { name: 'Filter' }).click();
    const panel = page.getByTestId('transcript-filter');
    await panel.waitFor();
    const box = await boxOf(panel);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await panel.getByText(LONG_NAME).click();
    await expect.poll(async () => await page.getByTestId('transcript-message').count()).toBe(2);
    await context.close();
  });

  it('in a narrow transcript panel, the line actions never cover the speaker name', { timeout: 60_000 }, async () => {
    const { context, page } = await openMeeting('narrow@example.com', VIEWPORTS.laptop);
    const first = message(page, 'quarterly numbers');
    const name = first.getByText(LONG_NAME, { exact: true });
    const nameBox = await boxOf(name);
    await first.hover();
    await page.waitForTimeout(300);
    for (const toolbar of await toolbars(page).all()) {
      if (await toolbar.isVisible()) expect(overlaps(await boxOf(toolbar), nameBox)).toBe(false);
    }
    // Selected, its toolbar shows under the line, clear of the name.
    await first.getByTestId('message-text').click();
    const toolbar = first.locator('[role="toolbar"]');
    await toolbar.waitFor();
    expect(await toolbar.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    expect(overlaps(await boxOf(toolbar), await boxOf(name))).toBe(false);
    await context.close();
  });
});
