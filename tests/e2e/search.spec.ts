import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINES_PER_BATCH } from '@mbox/shared';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { openSignedIn, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

const START = Date.UTC(2026, 10, 20, 15, 0);
const EMAIL = 'search@example.com';
/** Over two background pages (150 first, then 1,000 each): the line far down is in neither of the first two. */
const LONG = 2_400;
const FAR = 2_200;

const SPEAKERS = ['Ana Lopez', 'Bo Chen', 'Cy Dube'];

/** Ingests a finished meeting (a finished one opens at its top). */
async function seedFinished(app: TestApp, token: string, sessionId: string, title: string, texts: string[]): Promise<{ key: string; ids: string[] }> {
  let key = '';
  for (let from = 0; from < texts.length; from += MAX_LINES_PER_BATCH) {
    const { status, body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
      token,
      body: {
        meeting: { sessionId, meetCode: 'abc-defg-hij', startedAt: START, title },
        lines: texts.slice(from, from + MAX_LINES_PER_BATCH).map((text, i) => ({
          captionId: `c${from + i}`,
          revision: 0,
          speaker: SPEAKERS[(from + i) % SPEAKERS.length]!,
          text,
          spokenAt: START + (from + i) * 1000,
          final: true,
        })),
      },
    });
    if (status !== 200) throw new Error(`ingest failed: ${status}`);
    key = body.meetingKey;
  }
  await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId, finishedAt: START + texts.length * 1000 } });
  const rows = await app.deps.db.message.findMany({ where: { meetingId: key }, orderBy: [{ spokenAt: 'asc' }, { id: 'asc' }], select: { id: true } });
  return { key, ids: rows.map((r) => r.id) };
}

describe('search: header field → ranked results → the line in its transcript', () => {
  const web = webAppAndBrowser();
  let long: { key: string; ids: string[] };

  beforeAll(async () => {
    const token = await web.app.signIn(EMAIL);
    // Recaps off: ending the meetings must not summarise them meanwhile.
    await web.app.rest('PUT', '/v1/user-settings', { token, body: { sendSummary: false } });
    const texts = Array.from({ length: LONG }, (_, i) => `Line ${i}: we went through the plan and the open questions.`);
    texts[FAR] = 'The zeppelin budget was approved by the board.';
    long = await seedFinished(web.app, token, 'long', 'Board meeting', texts);
    await seedFinished(web.app, token, 'short', 'Zeppelin retro', ['Short meeting about nothing much.', 'A zeppelin was mentioned once.']);
  }, 120_000);

  it('searches from the header, shows ranked results grouped by meeting, and opens a line far down highlighted', async () => {
    const { page, context } = await openSignedIn(web.browser, web.app, { email: EMAIL });
    await page.getByRole('searchbox', { name: 'Search meetings' }).fill('zeppelin budget');
    await page.getByRole('searchbox', { name: 'Search meetings' }).press('Enter');
    await page.waitForURL(/\/search\?q=zeppelin\+budget$/);
    await page.getByTestId('search-results').waitFor();
    await expect.poll(() => page.getByTestId('search-encrypted-note').textContent()).toBe('Encrypted meetings are not searched.');

    const first = page.getByTestId('search-result').first();
    expect(await first.getAttribute('data-kind')).toBe('line');
    expect(await first.locator('mark').allTextContents()).toEqual(['zeppelin budget']);
    expect(await page.getByTestId('search-meeting').first().getByRole('heading').textContent()).toBe('Board meeting');
    // The line before and after it, for context.
    expect(await first.getByTestId('search-context').allTextContents()).toEqual([
      `${SPEAKERS[(FAR - 1) % 3]}: Line ${FAR - 1}: we went through the plan and the open questions.`,
      `${SPEAKERS[(FAR + 1) % 3]}: Line ${FAR + 1}: we went through the plan and the open questions.`,
    ]);

    await first.click();
    await page.waitForURL(`${web.app.url}/${long.key}?line=${long.ids[FAR]}`);
    const target = page.locator('[data-highlighted="true"]');
    await target.waitFor({ timeout: 15_000 });
    expect(await target.getByTestId('message-text').textContent()).toBe('The zeppelin budget was approved by the board.');
    // In view: inside the transcript scroller's visible box.
    const inView = async () => {
      const box = await target.boundingBox();
      const scroller = await page.getByTestId('transcript-scroller').boundingBox();
      return !!box && !!scroller && box.y >= scroller.y && box.y + box.height <= scroller.y + scroller.height;
    };
    await expect.poll(inView).toBe(true);
    // The highlight fades after a few seconds.
    await expect.poll(() => target.count(), { timeout: 10_000 }).toBe(0);

    // The meeting already open: a link to another of its lines (as a cited line in the ask panel) scrolls
    // there without reloading; the router sees the change as any in-app navigation.
    const openLine = (id: string) =>
      page.evaluate((path) => {
        window.history.pushState({ key: path }, '', path);
        window.dispatchEvent(new PopStateEvent('popstate', { state: { key: path } }));
      }, `/${long.key}?line=${id}`);
    await openLine(long.ids[5]!);
    await target.waitFor({ timeout: 15_000 });
    expect(await target.getByTestId('message-text').textContent()).toBe('Line 5: we went through the plan and the open questions.');
    await expect.poll(inView).toBe(true);
    await context.close();
  }, 90_000);

  it('shows the empty state, and on a phone the header icon opens the search page', async () => {
    const { page, context } = await openSignedIn(web.browser, web.app, { email: EMAIL, viewport: VIEWPORTS.phone });
    await page.getByRole('link', { name: 'Search meetings' }).click();
    await page.waitForURL(/\/search$/);
    const field = page.getByRole('searchbox', { name: 'Search words' });
    await field.fill('xylophone');
    await field.press('Enter');
    await page.getByTestId('search-empty').waitFor();
    expect(await page.getByTestId('search-empty').textContent()).toContain('Nothing in your meetings matches “xylophone”');
    await context.close();
  }, 60_000);
});
