import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINES_PER_BATCH } from '@mbox/shared';
import { makePremium, seedMeeting } from '../../apps/server/src/test/fixtures.js';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { launchBrowser, openSignedIn, startWebApp } from './support/browser.js';

const START = Date.UTC(2026, 10, 20, 15, 0);
const BIG = 10_000;

const LINES = [
  { speaker: 'Ana Lopez', text: 'um so we we should ship the release on friday' },
  { speaker: 'Bo Chen', text: 'I agree, the tests are green.' },
  { speaker: 'Cy Dube', text: 'What about the migration?' },
  { speaker: 'Ana Lopez', text: 'It runs at start, no downtime.' },
  { speaker: 'Bo Chen', text: 'Then friday it is.' },
];

/** Ingests a meeting with participants, finished `minutes` after its start. */
async function seedFinished(
  app: TestApp,
  token: string,
  sessionId: string,
  lines: { speaker: string; text: string }[],
  options: { participants?: string[]; minutes: number },
): Promise<string> {
  let meetingKey = '';
  for (let from = 0; from < lines.length; from += MAX_LINES_PER_BATCH) {
    const { status, body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
      token,
      body: {
        meeting: { sessionId, meetCode: 'abc-defg-hij', startedAt: START, title: `Meeting ${sessionId}`, participants: options.participants },
        lines: lines.slice(from, from + MAX_LINES_PER_BATCH).map((line, i) => ({
          captionId: `c${from + i}`,
          revision: 0,
          speaker: line.speaker,
          text: line.text,
          spokenAt: START + (from + i) * 1000,
          final: true,
        })),
      },
    });
    if (status !== 200) throw new Error(`ingest failed: ${status}`);
    meetingKey = body.meetingKey;
  }
  await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId, finishedAt: START + options.minutes * 60_000 } });
  return meetingKey;
}

const message = (page: Page, index: number) => page.getByTestId('transcript-message').nth(index);

/**
 * A line's actions. Where the transcript is too narrow for a floating toolbar they show under the line
 * the reader selects, so the line is clicked first, as a reader does.
 */
async function lineActions(page: Page, index: number) {
  await message(page, index).getByTestId('message-text').click();
  return message(page, index).getByRole('toolbar', { name: 'Message actions' });
}
const marksOf = (page: Page, index: number) => message(page, index).getAttribute('data-marks');
const texts = (page: Page) =>
  page.getByTestId('transcript-message').evaluateAll((nodes) => nodes.map((n) => n.querySelector('[data-testid="message-text"]')?.textContent ?? ''));

describe('transcript of the meeting screen', () => {
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

  it('marks a line optimistically, saves it, and keeps it after a reload; comments are added, edited and removed', async () => {
    const token = await app.signIn('marks@example.com');
    const { meetingKey } = await seedMeeting(app, token, 'marks', LINES);
    const { page, context } = await openSignedIn(browser, app, { email: 'marks@example.com', path: `/${meetingKey}` });
    await message(page, 0).waitFor();

    // Hold the save: the mark must show before the server answers.
    const held: Route[] = [];
    await page.route('**/trpc/message.mark**', (route) => void held.push(route));
    await (await lineActions(page, 0)).getByRole('button', { name: 'Mark important' }).click();
    await expect.poll(() => marksOf(page, 0)).toBe('important');
    await expect.poll(() => held.length).toBe(1);
    await held[0]!.continue();
    await page.unroute('**/trpc/message.mark**');
    await expect.poll(async () => (await app.deps.db.message.findFirstOrThrow({ where: { captionId: 'c0', meetingId: meetingKey } })).marks).toEqual(['important']);

    await (await lineActions(page, 1)).getByRole('button', { name: 'Flag' }).click();
    await expect.poll(() => marksOf(page, 1)).toBe('flagged');
    await (await lineActions(page, 0)).getByRole('button', { name: 'Unmark important' }).click();
    await expect.poll(() => marksOf(page, 0)).toBe('');
    await (await lineActions(page, 0)).getByRole('button', { name: 'Mark important' }).click();

    // Comment: add, edit, remove.
    await (await lineActions(page, 2)).getByRole('button', { name: 'Add comment' }).click();
    await message(page, 2).getByRole('textbox', { name: 'Comment' }).fill('Check the migration plan');
    await message(page, 2).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => message(page, 2).getByTestId('message-comment').textContent()).toContain('Check the migration plan');
    await expect.poll(() => marksOf(page, 2)).toBe('commented');

    await page.reload();
    await message(page, 0).waitFor();
    expect(await marksOf(page, 0)).toBe('important');
    expect(await marksOf(page, 1)).toBe('flagged');
    expect(await message(page, 2).getByTestId('message-comment').textContent()).toContain('Check the migration plan');

    await message(page, 2).getByTestId('message-comment').getByRole('button', { name: 'Edit comment' }).click();
    await message(page, 2).getByRole('textbox', { name: 'Comment' }).fill('Migration plan is fine');
    await message(page, 2).getByRole('textbox', { name: 'Comment' }).press('Enter');
    await expect.poll(() => message(page, 2).getByTestId('message-comment').textContent()).toContain('Migration plan is fine');
    await expect
      .poll(async () => (await app.deps.db.message.findFirstOrThrow({ where: { captionId: 'c2', meetingId: meetingKey } })).comment)
      .toBe('Migration plan is fine');

    await message(page, 2).getByTestId('message-comment').getByRole('button', { name: 'Edit comment' }).click();
    await message(page, 2).getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => message(page, 2).getByTestId('message-comment').count()).toBe(0);
    await expect.poll(() => marksOf(page, 2)).toBe('');
    await expect
      .poll(async () => (await app.deps.db.message.findFirstOrThrow({ where: { captionId: 'c2', meetingId: meetingKey } })).comment)
      .toBe('');
    await context.close();
  });

  it('filters by speaker and by mark; commented also matches a comment', async () => {
    const token = await app.signIn('filter@example.com');
    const { meetingKey, messages } = await seedMeeting(app, token, 'filter', LINES);
    await app.rest('PUT', `/v1/message/mark/${messages[4]!.key}`, { token, body: { marks: ['flagged'] } });
    // A comment without the 'commented' mark still matches the commented filter (product.md, Validation).
    await app.rest('PUT', `/v1/message/comment/${messages[1]!.key}`, { token, body: { comment: 'Good news' } });
    const { page, context } = await openSignedIn(browser, app, { email: 'filter@example.com', path: `/${meetingKey}` });
    await message(page, 0).waitFor();

    await page.getByRole('button', { name: 'Filter' }).click();
    const filter = page.getByTestId('transcript-filter');
    await filter.getByRole('checkbox', { name: /Cy Dube/ }).check();
    await expect.poll(() => texts(page)).toEqual([LINES[2]!.text]);
    await filter.getByRole('checkbox', { name: /Commented/ }).check();
    await expect.poll(() => texts(page)).toEqual([LINES[1]!.text, LINES[2]!.text]);
    await filter.getByRole('checkbox', { name: /Flagged/ }).check();
    await expect.poll(() => texts(page)).toEqual([LINES[1]!.text, LINES[2]!.text, LINES[4]!.text]);
    expect(await page.getByTestId('transcript-status').textContent()).toContain('3 of 5 lines');
    await filter.getByRole('button', { name: 'Clear filter' }).click();
    await expect.poll(() => texts(page)).toEqual(LINES.map((l) => l.text));
    await context.close();
  });

  it('Optimize (premium) shows the Optimized text and toggles to Origin; a Basic user sees the upgrade card', async () => {
    const token = await app.signIn('basic@example.com');
    const { meetingKey } = await seedMeeting(app, token, 'basic', LINES);
    const basic = await openSignedIn(browser, app, { email: 'basic@example.com', path: `/${meetingKey}` });
    await (await lineActions(basic.page, 0)).getByRole('button', { name: 'Optimize' }).click();
    const card = basic.page.getByRole('dialog', { name: 'Premium feature' }).getByTestId('upgrade-card');
    await card.waitFor();
    expect(await card.textContent()).toContain('Premium Feature');
    expect(await card.textContent()).toContain('Upgrade to premium to unlock more features');
    expect(await card.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/subscribe');
    expect(await app.deps.db.message.count({ where: { meetingId: meetingKey, aiFixed: { not: null } } })).toBe(0);
    await basic.context.close();

    const premiumToken = await app.signIn('premium@example.com');
    await makePremium(app, 'premium@example.com');
    const seeded = await seedMeeting(app, premiumToken, 'premium', LINES);
    const { page, context } = await openSignedIn(browser, app, { email: 'premium@example.com', path: `/${seeded.meetingKey}` });
    await (await lineActions(page, 0)).getByRole('button', { name: 'Optimize' }).click();
    const text = message(page, 0).getByTestId('message-text');
    await expect.poll(() => text.getAttribute('data-version'), { timeout: 20_000 }).toBe('optimized');
    const stored = await app.deps.db.message.findFirstOrThrow({ where: { meetingId: seeded.meetingKey, captionId: 'c0' } });
    expect(stored.aiFixed).toBeTruthy();
    expect(await text.textContent()).toBe(stored.aiFixed);
    expect(await text.textContent()).not.toBe(LINES[0]!.text);
    await message(page, 0).getByRole('button', { name: 'Origin' }).click();
    await expect.poll(() => text.textContent()).toBe(LINES[0]!.text);
    await message(page, 0).getByRole('button', { name: 'Optimized' }).click();
    await expect.poll(() => text.textContent()).toBe(stored.aiFixed);
    expect(await message(page, 0).getByRole('button', { name: 'Re-optimize' }).count()).toBe(1);
    await context.close();
  });

  it('header: title, 5 participant badges with +N and truncated names, for N minutes; times as hh:mm', async () => {
    const token = await app.signIn('header@example.com');
    const participants = ['Ana Lopez', 'Bo Chen', 'Cleopatra Philopator Seventh', 'Cy Dube', 'Eve', 'Fay', 'Gus'];
    const meetingKey = await seedFinished(app, token, 'header', LINES, { participants, minutes: 42 });
    const { page, context } = await openSignedIn(browser, app, { email: 'header@example.com', path: `/${meetingKey}` });
    const header = page.getByTestId('transcript-header');
    await header.waitFor();
    expect(await header.getByRole('heading').textContent()).toBe('Meeting header');
    const badges = header.getByTestId('participants');
    expect(await badges.textContent()).toContain('Cleopatra Philopator...');
    expect(await badges.textContent()).not.toContain('Fay');
    const more = badges.locator('[data-tip]');
    expect(await more.textContent()).toBe('+2');
    expect(await more.getAttribute('data-tip')).toBe('Fay, Gus');
    expect(await header.getByTestId('meeting-duration').textContent()).toBe('for 42 minutes');
    // TZ=Europe/Berlin: 15:00 UTC is 04:00 PM, en-US 2-digit.
    expect(await page.getByTestId('message-time').first().textContent()).toBe('04:00 PM');
    await context.close();
  });

  it('a 10,000-line meeting opens with few nodes in the DOM and scrolls to its last line', async () => {
    const token = await app.signIn('big@example.com');
    const lines = Array.from({ length: BIG }, (_, i) => ({
      speaker: ['Ana Lopez', 'Bo Chen', 'Cy Dube'][i % 7 < 3 ? 0 : i % 7 < 5 ? 1 : 2]!,
      text: `Line ${i + 1} of the long meeting, with enough words to wrap on a narrow panel now and then.`,
    }));
    const meetingKey = await seedFinished(app, token, 'big', lines, { minutes: 180 });
    const { page, context } = await openSignedIn(browser, app, { email: 'big@example.com', path: `/${meetingKey}` });
    await message(page, 0).waitFor();
    expect(await message(page, 0).getByTestId('message-text').textContent()).toBe(lines[0]!.text);
    // Every page arrives in the background.
    await expect.poll(async () => await page.getByTestId('transcript-status').textContent(), { timeout: 60_000 }).toBe('10,000 lines');
    const nodes = await page.getByTestId('transcript-message').count();
    expect(nodes).toBeGreaterThan(5);
    expect(nodes).toBeLessThan(80);

    // Scroll to the end as a reader would, in steps, until the scroller stops moving.
    const scroller = page.getByTestId('transcript-scroller');
    await expect
      .poll(
        () =>
          scroller.evaluate((el) => {
            el.scrollTop = el.scrollHeight;
            return el.scrollHeight - el.scrollTop - el.clientHeight;
          }),
        { timeout: 20_000 },
      )
      .toBeLessThan(2);
    await expect.poll(() => texts(page).then((t) => t.at(-1))).toBe(lines.at(-1)!.text);
    expect(await page.getByTestId('transcript-message').count()).toBeLessThan(80);
    await context.close();

    // Meanwhile the same server's recap job summarised all 10,000 lines (once it ran out of heap).
    const recap = async () => (await app.trpc(token).recap.list.query({})).recaps.find((r) => r.meetingId === meetingKey);
    await expect.poll(async () => (await recap())?.subject, { timeout: 60_000, interval: 250 }).toBe('Recap: Meeting big (Nov 20)');
    expect((await recap())?.kind).toBe('summary');
  });
});
