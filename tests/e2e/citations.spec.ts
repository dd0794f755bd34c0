import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_RESULT_ERROR, ERROR_TOAST, TOAST_DURATION_MS, TRANSLATION_NEEDS_MODEL, formatMessageTime } from '@mbox/shared';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { makePremium, seedMeeting, type SeedLine } from '../../apps/server/src/test/fixtures.js';
import { startOpenAiTestServer, type ChatCompletionBody, type OpenAiTestServer } from '../../apps/server/src/test/openai-server.js';
import { launchBrowser, openSignedIn, startWebApp, VIEWPORTS } from './support/browser.js';

const LINES: SeedLine[] = [
  { speaker: 'Alice', text: 'Morning all, let us walk through the launch checklist.' },
  { speaker: 'Bob', text: 'The weather is awful today, I got soaked on the way in.' },
  { speaker: 'Bob', text: 'I promise to send the revised budget to finance by Friday.' },
  { speaker: 'Carol', text: 'The landing page copy is ready for review.' },
  { speaker: 'Alice', text: 'Good, then we launch on the twelfth.' },
  { speaker: 'Carol', text: 'I will book the review meeting for Tuesday.' },
];
/** Where the screenshots go (looked at by hand; not committed by this test). */
const SHOTS = process.env.SUMMARY_SHOTS_DIR ?? '/tmp/summary-shots';

/** Seeded lines are a second apart from this start (fixtures.seedMeeting). */
const STARTED = Date.UTC(2026, 10, 20, 15, 0);

/** What the test LLM writes: points citing the numbered lines it was sent ([3] is Bob's promise), one inventing a figure. */
const ANSWER =
  '<ul><li>Bob sends the revised budget to finance by Friday [3].</li>' +
  '<li>The landing page copy is ready [4][6].</li>' +
  '<li>Priya pays 40 euros for the launch [5].</li></ul>';
const isTranslation = (body: ChatCompletionBody) => body.messages.some((m) => m.content.includes('Translate the HTML'));
/** A translation that keeps the placeholders of the marks, as a good model does. */
const translate = (body: ChatCompletionBody) =>
  body.messages[1]!.content.replace('Bob sends the revised budget', 'Bob wysyła poprawiony budżet').replace('The landing page copy', 'Tekst strony');

const panel = (page: Page) => page.getByTestId('summary-panel');
const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });
const poll = <T>(fn: () => Promise<T> | T, timeout = 30_000) => expect.poll(fn, { timeout, interval: 100 });

/** Shows an error toast and lets it clear (5 s, product.md, Errors / Limits). */
async function toastShownAndCleared(page: Page, text: string): Promise<void> {
  await toast(page, text).waitFor({ timeout: 30_000 });
  await toast(page, text).waitFor({ state: 'detached', timeout: TOAST_DURATION_MS + 3000 });
}

describe('summaries cite their lines (OpenAI-compatible LLM)', () => {
  let app: TestApp;
  let browser: Browser;
  let llm: OpenAiTestServer;
  beforeAll(async () => {
    llm = await startOpenAiTestServer({ responder: (body) => (isTranslation(body) ? translate(body) : ANSWER) });
    [app, browser] = await Promise.all([startWebApp({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: llm.url, LLM_MAX_RETRIES: 0 }), launchBrowser()]);
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await llm?.close();
  });

  it('shows a chip per cited line; the keyboard opens it highlighted in the transcript; translations keep them', async () => {
    const email = 'citer@example.com';
    const token = await app.signIn(email);
    const { meetingKey } = await seedMeeting(app, token, 'cited', LINES);
    const { context, page } = await openSignedIn(browser, app, { email, path: `/${meetingKey}` });
    try {
      await page.getByTestId('transcript-message').first().waitFor();
      await panel(page).getByRole('button', { name: 'Generate' }).click();
      const text = panel(page).getByTestId('summary-text');
      await text.waitFor({ timeout: 30_000 });
      const chips = text.getByTestId('summary-citation');
      const time = (i: number) => formatMessageTime(STARTED + i * 1000);
      expect(await chips.allInnerTexts()).toEqual([time(2), time(3), time(5), time(4)]);
      // The tooltip: speaker, time and the line said.
      const tip = await chips.first().getAttribute('title');
      expect(tip).toBe(`Bob · ${time(2)}: “${LINES[2]!.text}”`);
      // The invented figure and owner are marked.
      const marks = text.getByTestId('unsupported-mark');
      expect(await marks.count()).toBe(1);
      expect(await marks.innerText()).toContain('not found in the transcript');
      expect(await marks.getAttribute('title')).toBe('Not found in the transcript: 40 euros; Priya');
      await page.screenshot({ path: path.join(SHOTS, 'summary-citations.png') });

      // Keyboard: Tab reaches the chip, Enter opens its line highlighted in the transcript.
      await chips.first().focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\?line=/);
      const highlighted = page.locator('[data-highlighted="true"]');
      await highlighted.waitFor({ timeout: 15_000 });
      expect(await highlighted.getByTestId('message-text').textContent()).toBe(LINES[2]!.text);

      // A translation keeps the citations (the marks travel as placeholders through the model).
      await panel(page).getByRole('combobox', { name: 'Language' }).selectOption('pl');
      await panel(page).getByText('Bob wysyła poprawiony budżet').waitFor();
      expect(await text.getByTestId('summary-citation').allInnerTexts()).toEqual([time(2), time(3), time(5), time(4)]);
      expect(await text.getByTestId('unsupported-mark').count()).toBe(1);
      await text.getByTestId('summary-citation').nth(1).click();
      await poll(() => highlighted.getByTestId('message-text').textContent()).toBe(LINES[3]!.text);
    } finally {
      await context.close();
    }
  });

  it('on a phone, a chip switches to the transcript tab with the line highlighted', async () => {
    const email = 'phone-citer@example.com';
    const token = await app.signIn(email);
    const { meetingKey } = await seedMeeting(app, token, 'cited-phone', LINES);
    await app.rest('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'summary' } });
    const { context, page } = await openSignedIn(browser, app, { email, path: `/${meetingKey}`, viewport: VIEWPORTS.phone });
    try {
      await page.getByRole('tab', { name: 'Summary' }).click();
      await panel(page).getByTestId('summary-citation').first().waitFor({ timeout: 15_000 });
      await page.screenshot({ path: path.join(SHOTS, 'summary-citations-phone.png') });
      await panel(page).getByTestId('summary-citation').nth(1).click();
      await poll(() => page.getByRole('tab', { name: 'Transcript' }).getAttribute('aria-selected')).toBe('true');
      const highlighted = page.locator('[data-highlighted="true"]');
      await highlighted.waitFor({ timeout: 15_000 });
      expect(await highlighted.getByTestId('message-text').textContent()).toBe(LINES[3]!.text);
    } finally {
      await context.close();
    }
  });

  it('toasts an empty AI answer and a failed call as documented, for translation, a question and Regenerate', async () => {
    const email = 'toasts@example.com';
    const token = await app.signIn(email);
    await makePremium(app, email);
    const { meetingKey } = await seedMeeting(app, token, 'toasts', LINES);
    await app.rest('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'summary' } });
    const { context, page } = await openSignedIn(browser, app, { email, path: `/${meetingKey}` });
    try {
      const language = panel(page).getByRole('combobox', { name: 'Language' });
      await panel(page).getByTestId('summary-text').waitFor({ timeout: 30_000 });

      // Translation: the model answers nothing, then fails.
      llm.enqueue({ content: '' });
      await language.selectOption('fr');
      await toastShownAndCleared(page, EMPTY_RESULT_ERROR);
      await poll(() => language.inputValue()).toBe('en');
      llm.enqueue({ status: 500, message: 'model crashed' });
      await language.selectOption('de');
      await toastShownAndCleared(page, ERROR_TOAST);
      expect(await toast(page, EMPTY_RESULT_ERROR).count()).toBe(0);

      // A question to the assistant.
      const box = panel(page).getByRole('textbox', { name: 'Ask assistant?' });
      const ask = panel(page).getByRole('button', { name: 'Ask' });
      llm.enqueue({ content: '' });
      await box.fill('When do we launch the product?');
      await ask.click();
      await toastShownAndCleared(page, EMPTY_RESULT_ERROR);
      llm.enqueue({ status: 500, message: 'model crashed' });
      await box.fill('Who sends the budget to finance?');
      await ask.click();
      await toastShownAndCleared(page, ERROR_TOAST);

      // Regenerate.
      await poll(() => panel(page).getByTestId('summary-text').count()).toBe(1);
      const regenerate = panel(page).getByRole('button', { name: 'Regenerate' });
      llm.enqueue({ content: '' });
      await regenerate.click();
      await toastShownAndCleared(page, EMPTY_RESULT_ERROR);
      llm.enqueue({ status: 500, message: 'model crashed' });
      await poll(() => regenerate.isEnabled()).toBe(true);
      await regenerate.click();
      await toastShownAndCleared(page, ERROR_TOAST);
      // The stored summary is still shown whole.
      expect(await panel(page).getByTestId('summary-citation').count()).toBe(4);
    } finally {
      await context.close();
    }
  });
});

describe('translation without an AI model', () => {
  let app: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    [app, browser] = await Promise.all([startWebApp(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('the language picker and Settings › Summary say translation needs a model and where to set one up', async () => {
    const email = 'offline@example.com';
    const token = await app.signIn(email);
    await makePremium(app, email);
    const { meetingKey } = await seedMeeting(app, token, 'offline', LINES);
    await app.rest('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'summary' } });
    const { context, page } = await openSignedIn(browser, app, { email, path: `/${meetingKey}` });
    try {
      await panel(page).getByTestId('summary-text').waitFor({ timeout: 30_000 });
      const note = panel(page).getByTestId('translation-needs-model');
      await note.waitFor();
      expect(await note.innerText()).toBe(TRANSLATION_NEEDS_MODEL);
      expect(TRANSLATION_NEEDS_MODEL).toContain('OPENAI_API_KEY');
      expect(await panel(page).getByRole('combobox', { name: 'Language' }).isDisabled()).toBe(true);
      await page.screenshot({ path: path.join(SHOTS, 'summary-translation-needs-model.png') });

      await page.goto(`${app.url}/settings?tab=summary`);
      // Once the server said it has no model (until then translation counts as available).
      const settingsNote = page.getByTestId('translation-needs-model');
      await settingsNote.waitFor();
      expect(await settingsNote.innerText()).toBe(TRANSLATION_NEEDS_MODEL);
      expect(await page.getByLabel('Translate to').isDisabled()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
