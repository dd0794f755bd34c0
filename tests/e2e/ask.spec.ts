import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { openSignedIn, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

const START = Date.now() - 10 * 60_000;
const SESSION = 'ask-live';

/** Posts caption lines as the extension does during a meeting (the meeting stays open). */
async function post(app: TestApp, token: string, from: number, lines: { speaker: string; text: string }[]): Promise<string> {
  const { status, body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
    token,
    body: {
      meeting: { sessionId: SESSION, meetCode: 'abc-defg-hij', startedAt: START, title: 'Launch sync' },
      lines: lines.map((line, i) => ({
        captionId: `c${from + i}`,
        revision: 0,
        speaker: line.speaker,
        text: line.text,
        spokenAt: START + (from + i) * 5000,
        final: true,
      })),
    },
  });
  if (status !== 200) throw new Error(`ingest failed: ${status}`);
  return body.meetingKey;
}

const FIRST = [
  { speaker: 'Alice', text: 'Morning all, let us walk through the launch checklist.' },
  { speaker: 'Bob', text: 'The weather is awful today, I got soaked on the way in.' },
  { speaker: 'Bob', text: 'I promise to send the revised budget to finance by Friday.' },
  { speaker: 'Carol', text: 'The landing page copy is ready for review.' },
];
const LATER = { speaker: 'Dana', text: 'I will own the invoice export from now on.' };

async function askQuestion(page: Page, question: string): Promise<void> {
  const input = page.getByRole('textbox', { name: 'Your question' });
  await input.fill(question);
  await page.getByRole('button', { name: 'Send' }).click();
}

const lastAnswer = (page: Page) => page.getByTestId('ask-turn').last().getByTestId('ask-answer');

describe('ask the meeting while it runs', () => {
  const web = webAppAndBrowser();

  it('answers from the live transcript with citations, uses lines posted later, and opens a cited line', async () => {
    const email = 'asker@example.com';
    const token = await web.app.signIn(email);
    const meetingId = await post(web.app, token, 0, FIRST);
    const { page, context } = await openSignedIn(web.browser, web.app, { email, path: `/${meetingId}` });
    await page.getByTestId('transcript-message').first().waitFor();

    await page.getByRole('tab', { name: 'Ask' }).click();
    const send = page.getByRole('button', { name: 'Send' });
    await page.getByRole('textbox', { name: 'Your question' }).fill('Bob?');
    expect(await send.isDisabled()).toBe(true);

    await askQuestion(page, 'What did Bob promise?');
    await expect.poll(() => lastAnswer(page).getAttribute('aria-busy')).toBe('false');
    expect(await page.getByTestId('ask-question').last().textContent()).toBe('What did Bob promise?');
    expect(await lastAnswer(page).getByTestId('ask-answer-text').textContent()).toContain('I promise to send the revised budget to finance by Friday.');
    expect(await lastAnswer(page).getByTestId('ask-engine').textContent()).toBe('Answered by the offline engine');
    const chips = lastAnswer(page).getByTestId('ask-citation');
    expect(await chips.count()).toBe(1);
    expect(await chips.first().textContent()).toMatch(/^1Bob · \d\d:\d\d [AP]M$/);

    // A question about something not said yet, then the meeting goes on and says it.
    await askQuestion(page, 'Who owns the invoice export?');
    await expect.poll(() => lastAnswer(page).getAttribute('aria-busy')).toBe('false');
    expect(await lastAnswer(page).textContent()).toContain('Nothing in the transcript so far matches this question.');
    await post(web.app, token, FIRST.length, [LATER]);
    await expect.poll(() => page.getByTestId('transcript-message').count()).toBe(FIRST.length + 1);
    await askQuestion(page, 'Who owns the invoice export?');
    await expect.poll(() => lastAnswer(page).getAttribute('aria-busy')).toBe('false');
    expect(await lastAnswer(page).getByTestId('ask-answer-text').textContent()).toContain(LATER.text);
    expect(await lastAnswer(page).getByTestId('ask-citation').first().textContent()).toMatch(/^1Dana · /);
    expect(await page.getByTestId('ask-turn').count()).toBe(3);

    // The cited line opens in the transcript: its id is the `line` search parameter.
    const dana = await web.app.deps.db.message.findFirstOrThrow({ where: { meetingId, text: LATER.text } });
    await lastAnswer(page).getByTestId('ask-citation').first().click();
    await page.waitForURL((url) => url.pathname === `/${meetingId}` && url.searchParams.get('line') === dana.id);
    // …and the transcript, already open beside the chat, highlights that line.
    const highlighted = page.locator('[data-highlighted="true"]');
    await highlighted.waitFor({ timeout: 15_000 });
    expect(await highlighted.getByTestId('message-text').textContent()).toBe(LATER.text);
    // The chat stays while the page is open.
    expect(await page.getByTestId('ask-turn').count()).toBe(3);
    await context.close();
  }, 60_000);

  it('works on a phone in its own tab, and a citation switches to the transcript', async () => {
    const email = 'phone-asker@example.com';
    const token = await web.app.signIn(email);
    const { status, body } = await web.app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
      token,
      body: {
        meeting: { sessionId: 'phone', meetCode: 'abc-defg-hij', startedAt: START },
        lines: FIRST.map((line, i) => ({ captionId: `p${i}`, revision: 0, ...line, spokenAt: START + i * 5000, final: true })),
      },
    });
    expect(status).toBe(200);
    const { page, context } = await openSignedIn(web.browser, web.app, { email, path: `/${body.meetingKey}`, viewport: VIEWPORTS.phone });
    await page.getByRole('tab', { name: 'Ask' }).click();
    await page.getByRole('button', { name: 'Who promised to do what?' }).click();
    await expect.poll(() => lastAnswer(page).getAttribute('aria-busy')).toBe('false');
    await lastAnswer(page).getByTestId('ask-citation').first().click();
    await page.waitForURL((url) => url.searchParams.has('line'));
    expect(await page.getByRole('tab', { name: 'Transcript' }).getAttribute('aria-selected')).toBe('true');
    await page.locator('[data-highlighted="true"]').waitFor({ timeout: 15_000 });
    // Back on the Ask tab, the chat is still there.
    await page.getByRole('tab', { name: 'Ask' }).click();
    expect(await page.getByTestId('ask-turn').count()).toBe(1);
    await context.close();
  }, 60_000);
});
