import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { openSignedIn, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

const EMAIL = 'ask-all@example.com';
const DECISION = 'We decided to raise the pro plan price to thirty dollars from January.';
/** The 15th of last month, 14:00 UTC: inside "last month" in any zone. */
const LAST_MONTH = (() => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 14, 0);
})();
const THREE_MONTHS_AGO = (() => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 10, 9, 0);
})();

/** Ingests a finished meeting; returns its key and its lines' ids in spoken order. */
async function seedFinished(app: TestApp, token: string, sessionId: string, title: string, startedAt: number, texts: string[]) {
  const { status, body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
    token,
    body: {
      meeting: { sessionId, meetCode: 'abc-defg-hij', startedAt, title },
      lines: texts.map((text, i) => ({
        captionId: `c${i}`,
        revision: 0,
        speaker: ['Alice', 'Bob', 'Carol'][i % 3]!,
        text,
        spokenAt: startedAt + i * 4000,
        final: true,
      })),
    },
  });
  if (status !== 200) throw new Error(`ingest failed: ${status}`);
  await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId, finishedAt: startedAt + texts.length * 4000 } });
  const rows = await app.deps.db.message.findMany({ where: { meetingId: body.meetingKey }, orderBy: [{ spokenAt: 'asc' }, { id: 'asc' }] });
  return { key: body.meetingKey, ids: rows.map((r) => r.id) };
}

describe('ask all meetings: header → streamed answer with citations → the cited line', () => {
  const web = webAppAndBrowser();
  let review: { key: string; ids: string[] };
  const filler = Array.from({ length: 400 }, (_, i) => `Line ${i}: we walked through the agenda and the open items.`);
  const decisionAt = 300;

  beforeAll(async () => {
    const token = await web.app.signIn(EMAIL);
    // Recaps off: ending the meetings must not summarise them meanwhile.
    await web.app.rest('PUT', '/v1/user-settings', { token, body: { sendSummary: false } });
    const texts = [...filler];
    texts[decisionAt] = DECISION;
    review = await seedFinished(web.app, token, 'review', 'Pricing review', LAST_MONTH, texts);
    await seedFinished(web.app, token, 'older', 'Website sync', THREE_MONTHS_AGO, [
      'The pricing page still shows the old screenshots.',
      'I can update them before the launch.',
    ]);
  }, 120_000);

  it('asks from the header with the keyboard, streams the answer, and opens a cited line highlighted', async () => {
    const { page, context } = await openSignedIn(web.browser, web.app, { email: EMAIL, viewport: VIEWPORTS.desktop });
    await page.getByRole('link', { name: 'Ask all meetings' }).click();
    await page.waitForURL(/\/ask$/);
    const field = page.getByRole('textbox', { name: 'Your question about all meetings' });
    // The field has the focus on arrival: typing and Enter ask.
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    const stream = page.waitForResponse((response) => response.url().includes('/trpc/ask.allStream'));
    await page.keyboard.type('What did we decide about pricing?');
    await page.keyboard.press('Enter');
    // The answer comes as a server-sent event stream.
    expect((await stream).headers()['content-type']).toContain('text/event-stream');

    const answer = page.getByTestId('ask-turn').last().getByTestId('ask-answer');
    await answer.getByTestId('ask-engine').waitFor();
    expect(await answer.getByTestId('ask-engine').textContent()).toBe('Answered by the offline engine');
    const text = (await answer.getByTestId('ask-answer-text').textContent()) ?? '';
    expect(text).toMatch(/^Searched all 2 of your meetings\./);
    expect(text).toContain(DECISION);
    expect(await answer.getByTestId('ask-scope-range').textContent()).toBe('All meetings');

    // Chips name the meeting and the time; the decision's chip comes from the pricing review.
    const chips = answer.getByTestId('ask-citation');
    const labels = await chips.allTextContents();
    expect(labels.some((label) => /^\dPricing review · \w{3} 15, \d\d:\d\d [AP]M$/.test(label))).toBe(true);
    expect(labels.some((label) => /^\dWebsite sync · /.test(label))).toBe(true);
    const decisionChip = chips.filter({ hasText: 'Pricing review' }).last();
    expect(await decisionChip.getAttribute('title')).toContain(DECISION);

    // Keyboard: the chip takes the focus and Enter opens its line, highlighted in its transcript.
    await decisionChip.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${web.app.url}/${review.key}?line=${review.ids[decisionAt]}`);
    const target = page.locator('[data-highlighted="true"]');
    await target.waitFor({ timeout: 15_000 });
    expect(await target.getByTestId('message-text').textContent()).toBe(DECISION);
    await context.close();
  }, 90_000);

  it('restricts "last month" and says so, on a phone from the header icon, without overflowing 390 px', async () => {
    const { page, context } = await openSignedIn(web.browser, web.app, { email: EMAIL, viewport: VIEWPORTS.phone });
    await page.getByRole('link', { name: 'Ask all meetings' }).click();
    await page.waitForURL(/\/ask$/);
    await page.getByRole('textbox', { name: 'Your question about all meetings' }).fill('What did we decide about pricing last month?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    const answer = page.getByTestId('ask-turn').last().getByTestId('ask-answer');
    await answer.getByTestId('ask-engine').waitFor();
    expect(await answer.getByTestId('ask-scope-range').textContent()).toMatch(/ · “last month”$/);
    expect(await answer.getByTestId('ask-answer-text').textContent()).toMatch(/^Searched 1 meeting, .+ \(“last month”\)\./);
    const meetings = new Set(await answer.getByTestId('ask-citation').allTextContents());
    expect([...meetings].every((label) => label.includes('Pricing review'))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await context.close();
  }, 60_000);

  it('asks the words of a search from the search page', async () => {
    const { page, context } = await openSignedIn(web.browser, web.app, { email: EMAIL, path: '/search?q=pricing', viewport: VIEWPORTS.desktop });
    await page.getByTestId('search-results').waitFor();
    await page.getByTestId('search-ask-all').click();
    await page.waitForURL(/\/ask$/);
    const answer = page.getByTestId('ask-turn').last().getByTestId('ask-answer');
    await answer.getByTestId('ask-engine').waitFor();
    expect(await page.getByTestId('ask-question').last().textContent()).toBe('pricing');
    expect(await answer.getByTestId('ask-answer-text').textContent()).toContain(DECISION);
    // A reload neither asks again nor keeps the question.
    await page.reload();
    await page.getByRole('textbox', { name: 'Your question about all meetings' }).waitFor();
    expect(await page.getByTestId('ask-turn').count()).toBe(0);
    await context.close();
  }, 60_000);
});
