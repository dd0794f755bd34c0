import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DAILY_LIMIT_REACHED,
  ERROR_TOAST,
  LANGUAGE_PICK_LIST,
  OFFERED_SUMMARY_DEPTHS,
  SUMMARY_UNAVAILABLE_MESSAGE,
  TOAST_DURATION_MS,
  TRANSLATION_NEEDS_MODEL,
} from '@mbox/shared';
import { AI_GENERATION_KIND } from '../../apps/server/src/modules/ai-usage/service.js';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { makePremium, seedMeeting, type SeedLine } from '../../apps/server/src/test/fixtures.js';
import { startOpenAiTestServer, type ChatCompletionBody, type OpenAiTestServer } from '../../apps/server/src/test/openai-server.js';
import { usageDay } from '../../apps/server/src/trpc/rate-limit.js';
import { readQmsumTurns } from '../fixtures/meet/replay.js';
import { launchBrowser, openSignedIn, startWebApp, VIEWPORTS } from './support/browser.js';

/** Where the screenshots of the panel go (looked at by hand; not committed by this test). */
const SHOTS = process.env.SUMMARY_SHOTS_DIR ?? '/tmp/summary-shots';

const DEFAULT_LABELS = [
  'Summary',
  'Meeting goals',
  'Main topics',
  'Summary in 1 sentence',
  'Key decisions',
  'Action Items',
  'Next Steps',
  'Unresolved Issues',
  'Missing Information',
  'Sentiment Analysis',
];

/** What the page's EventSources received, recorded by an init script (tRPC subscriptions use SSE). */
declare global {
  interface Window {
    __sse: { url: string; data: string }[];
  }
}

/** Records every SSE message the page receives; installed before the app's scripts run. */
async function recordServerSentEvents(context: BrowserContext, page: Page): Promise<void> {
  await context.addInitScript(() => {
    window.__sse = [];
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        this.addEventListener('message', (event) => window.__sse.push({ url: String(url), data: String(event.data) }));
      }
    };
  });
  await page.reload();
}

/** The summary stream events the page received since `from`, by type. */
async function streamEvents(page: Page, from = 0): Promise<string[]> {
  const messages = await page.evaluate(() => window.__sse);
  return messages
    .slice(from)
    .filter((m) => m.url.includes('summary.generateStream'))
    .flatMap((m) => {
      const type = /"type":"(token|done)"/.exec(m.data)?.[1];
      return type ? [type] : [];
    });
}

async function sseCount(page: Page): Promise<number> {
  return page.evaluate(() => window.__sse.length);
}

const panel = (page: Page) => page.getByTestId('summary-panel');
const promptPicker = (page: Page) => panel(page).getByRole('combobox', { name: 'Prompt type' });
const languagePicker = (page: Page) => panel(page).getByRole('combobox', { name: 'Language' });
const summaryText = (page: Page) => panel(page).getByTestId('summary-text');
const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

/** Polls generously: generations and toasts take their time on 2 shared cores. */
const poll = <T>(fn: () => Promise<T> | T, timeout = 30_000) => expect.poll(fn, { timeout, interval: 100 });

/** The shown summary's title, or '' while none is shown. */
const titleOf = (page: Page) =>
  panel(page).getByTestId('summary-title').innerText({ timeout: 200 }).catch(() => '');

async function optionLabels(page: Page): Promise<string[]> {
  return promptPicker(page).locator('option').allInnerTexts();
}

/** Waits until the panel loaded its summaries (the picker is enabled). */
async function panelReady(page: Page): Promise<void> {
  await poll(() => promptPicker(page).isEnabled()).toBe(true);
}

/** tRPC calls of the page by procedure (batched GET/POST under /trpc). */
function watchCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/trpc/')) calls.push(...url.pathname.slice('/trpc/'.length).split(','));
  });
  return calls;
}

describe('summary panel with the offline engine', () => {
  let app: TestApp;
  let browser: Browser;
  let turns: SeedLine[];
  beforeAll(async () => {
    [app, browser, turns] = await Promise.all([startWebApp(), launchBrowser(), readQmsumTurns('ES2004a', 60)]);
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function open(email: string, lines: SeedLine[], session: string, viewport: { width: number; height: number } = VIEWPORTS.desktop) {
    const token = await app.signIn(email);
    const { meetingKey } = await seedMeeting(app, token, session, lines);
    const signedIn = await openSignedIn(browser, app, { email, path: `/${meetingKey}`, viewport });
    return { ...signedIn, meetingKey };
  }

  it('lists the default prompt types, generates streamed, regenerates, and does not offer translation without a model', async () => {
    const { context, page } = await open('basic@example.com', turns, 'basic-es2004a');
    try {
      await recordServerSentEvents(context, page);
      const calls = watchCalls(page);
      await panelReady(page);
      expect(await optionLabels(page)).toEqual(DEFAULT_LABELS);
      expect(await languagePicker(page).locator('option').allInnerTexts()).toEqual(
        LANGUAGE_PICK_LIST.map((l) => `${l.flag} ${l.name}`),
      );
      expect((await languagePicker(page).locator('option').allInnerTexts()).slice(0, 4).map((t) => t.split(' ')[1])).toEqual([
        'English',
        'Ukrainian',
        'French',
        'Polish',
      ]);

      // None yet: the Generate button; generating streams tokens, then the stored summary is shown.
      const generate = panel(page).getByRole('button', { name: 'Generate' });
      await generate.waitFor();
      await generate.click();
      await summaryText(page).waitFor({ timeout: 30_000 });
      const events = await streamEvents(page);
      expect(events.filter((t) => t === 'token').length).toBeGreaterThanOrEqual(1);
      expect(events.at(-1)).toBe('done');
      expect(events.indexOf('token')).toBeLessThan(events.indexOf('done'));
      expect((await summaryText(page).innerText()).length).toBeGreaterThan(40);
      expect(await panel(page).getByTestId('summary-title').innerText()).toBe('Summary');

      // Choosing another type without a summary generates it right away.
      const before = await sseCount(page);
      await promptPicker(page).selectOption({ label: 'Key decisions' });
      await poll(() => titleOf(page)).toBe('Key decisions');
      expect(await streamEvents(page, before)).toContain('done');

      // Back to Summary: the stored one is shown, with no new generation.
      const generations = calls.length;
      await promptPicker(page).selectOption({ label: 'Summary' });
      await poll(() => titleOf(page)).toBe('Summary');
      expect(calls.slice(generations).filter((c) => c.startsWith('summary.'))).toEqual([]);

      // Regenerate replaces it (summary.regenerate = PUT /v1/prompts/{summaryKey}).
      const regenerated = page.waitForResponse((r) => r.url().includes('/trpc/summary.regenerate'));
      await panel(page).getByRole('button', { name: 'Regenerate' }).click();
      expect((await regenerated).status()).toBe(200);
      await poll(() => panel(page).getByText('Regenerating…').count()).toBe(0);
      expect((await summaryText(page).innerText()).length).toBeGreaterThan(40);

      // The offline engine cannot translate: the picker is not offered, and says why and where to set a model up.
      await panel(page).getByTestId('translation-needs-model').waitFor();
      expect(await panel(page).getByTestId('translation-needs-model').innerText()).toBe(TRANSLATION_NEEDS_MODEL);
      expect(await languagePicker(page).isDisabled()).toBe(true);
      expect(await languagePicker(page).inputValue()).toBe('en');

      // Basic users see the upgrade card in place of the premium controls.
      const card = panel(page).getByTestId('upgrade-card');
      await page.screenshot({ path: path.join(SHOTS, 'summary-basic.png') });
      expect(await card.getByText('Premium Feature').isVisible()).toBe(true);
      expect(await card.getByText('Upgrade to premium to unlock more features').isVisible()).toBe(true);
      expect(await panel(page).getByRole('textbox', { name: 'Ask assistant?' }).count()).toBe(0);
      expect(await panel(page).getByRole('button', { name: 'Summary settings' }).count()).toBe(0);
      await card.getByRole('link', { name: 'Upgrade' }).click();
      await page.waitForURL(/\/subscribe$/);
    } finally {
      await context.close();
    }
  });

  it('shows no count and never refuses a free user: offline generations are not counted', async () => {
    const email = 'offline-quota@example.com';
    const { context, page } = await open(email, turns, 'offline-quota-es2004a');
    try {
      const user = await app.deps.db.user.findUniqueOrThrow({ where: { email } });
      await app.deps.db.dailyUsage.create({ data: { subject: user.id, day: usageDay(), kind: AI_GENERATION_KIND, count: 10 } });
      await panelReady(page);
      await promptPicker(page).selectOption({ label: 'Main topics' });
      await summaryText(page).waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('ai-usage-left').count()).toBe(0);
      expect(await toast(page, DAILY_LIMIT_REACHED).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('shows the unavailable note with the real minimum on a 2-line meeting, as information, not an error', async () => {
    const { context, page } = await open('small@example.com', turns.slice(0, 2), 'small-2');
    try {
      const note = panel(page).getByTestId('summary-unavailable');
      await note.waitFor();
      expect(await note.innerText()).toBe(SUMMARY_UNAVAILABLE_MESSAGE);
      expect(await note.getAttribute('role')).toBe('status');
      expect(await panel(page).getByRole('alert').count()).toBe(0);
      // Not drawn as an error: its colours are not the theme's error colours.
      const colours = await note.evaluate((el) => {
        const probe = document.createElement('div');
        probe.className = 'alert alert-error alert-soft';
        document.body.append(probe);
        const error = getComputedStyle(probe).color;
        probe.remove();
        return { note: getComputedStyle(el).color, error };
      });
      expect(colours.note).not.toBe(colours.error);
      expect(SUMMARY_UNAVAILABLE_MESSAGE).toMatch(/at least 5 replica from 2 different participations/);
      expect(await promptPicker(page).isDisabled()).toBe(true);
      expect(await panel(page).getByRole('button', { name: 'Generate' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('premium: asks the assistant, adds the answer to the list, and regenerates with settings', async () => {
    const email = 'premium@example.com';
    await app.signIn(email);
    await makePremium(app, email);
    const { context, page } = await open(email, turns, 'premium-es2004a');
    try {
      const calls = watchCalls(page);
      const bodies: Record<string, string> = {};
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname;
        if (path.startsWith('/trpc/summary.')) bodies[path.slice('/trpc/'.length)] = r.postData() ?? '';
      });
      await panelReady(page);
      expect(await panel(page).getByTestId('upgrade-card').count()).toBe(0);

      // Ask stays disabled below 6 characters.
      const box = panel(page).getByRole('textbox', { name: 'Ask assistant?' });
      const ask = panel(page).getByRole('button', { name: 'Ask' });
      await box.fill('Who?');
      expect(await ask.isDisabled()).toBe(true);
      await box.fill('Who? ');
      expect(await ask.isDisabled()).toBe(true);
      const question = 'What did the team decide about the remote control?';
      await box.fill(question);
      expect(await ask.isEnabled()).toBe(true);
      await ask.click();
      await poll(() => titleOf(page)).toBe(question);
      expect(await optionLabels(page)).toEqual([...DEFAULT_LABELS, question]);
      expect(await promptPicker(page).locator('option:checked').innerText()).toBe(question);
      expect(await box.inputValue()).toBe('');
      expect(calls).toContain('summary.generateStream');

      // Questions already asked are listed after a reload too.
      await page.reload();
      await panelReady(page);
      expect(await optionLabels(page)).toEqual([...DEFAULT_LABELS, question]);

      // The settings dialog: needs a summary to regenerate; product.md, Validation length rules on leaving a field.
      await promptPicker(page).selectOption({ label: 'Summary' });
      await panel(page).getByTestId('summary-text').waitFor({ timeout: 30_000 });
      await panel(page).getByRole('button', { name: 'Summary settings' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      expect(await dialog.getByRole('combobox').locator('option').allInnerTexts()).toEqual(OFFERED_SUMMARY_DEPTHS.map((d) => d.label));
      const min = dialog.getByRole('spinbutton', { name: 'Min length (words)' });
      const max = dialog.getByRole('spinbutton', { name: 'Max length (words)' });
      expect(await min.isDisabled()).toBe(true);
      await dialog.getByRole('checkbox', { name: /Control summary length/ }).check();
      expect(await min.isEnabled()).toBe(true);
      await min.fill('30');
      await max.click();
      expect(await min.inputValue()).toBe('50');
      await min.fill('170');
      await max.fill('120');
      await dialog.getByRole('combobox').click();
      expect(await min.inputValue()).toBe('150');
      expect(await max.inputValue()).toBe('150');
      await max.fill('0');
      await dialog.getByRole('combobox').selectOption({ label: 'By speaker' });
      await page.screenshot({ path: path.join(SHOTS, 'summary-settings.png') });
      expect(await max.inputValue()).toBe('0');
      await max.fill('420');
      const regenerated = page.waitForResponse((r) => r.url().includes('/trpc/summary.regenerateWithSettings'));
      await dialog.getByRole('button', { name: 'Regenerate' }).click();
      expect((await regenerated).status()).toBe(200);
      // The batch link posts { "0": input }.
      expect(Object.values(JSON.parse(bodies['summary.regenerateWithSettings']!) as object)[0]).toMatchObject({
        settings: { depth: 'speaker', minLength: 150, maxLength: 400 },
      });
      await poll(() => dialog.isVisible()).toBe(false);
      await poll(() => panel(page).getByText('Regenerating…').count()).toBe(0);
      expect((await summaryText(page).innerText()).length).toBeGreaterThan(20);
      // Stored with the settings it was generated with.
      const stored = await app.deps.db.summary.findFirstOrThrow({ where: { promptKey: 'summary', meeting: { user: { email } } } });
      expect(stored.settings).toMatchObject({ depth: 'speaker', minLength: 150, maxLength: 400 });
    } finally {
      await context.close();
    }
  });

  it('looks right with a summary shown at 1280, 1024 and 390 px', async () => {
    const email = 'shots@example.com';
    await app.signIn(email);
    await makePremium(app, email);
    const token = await app.signIn(email);
    const { meetingKey } = await seedMeeting(app, token, 'shots-es2004a', turns);
    const generated = await app.rest('POST', '/v1/prompts', { token, body: { meetKey: meetingKey, promptKey: 'summary' } });
    expect(generated.status).toBe(200);
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const { context, page } = await openSignedIn(browser, app, { email, path: `/${meetingKey}`, viewport });
      try {
        // On a phone the meeting screen shows one panel at a time, switched by tabs.
        if (name === 'phone') await page.getByRole('tab', { name: 'Summary' }).click();
        await summaryText(page).waitFor({ timeout: 15_000 }).catch(async (error: unknown) => {
          await page.screenshot({ path: path.join(SHOTS, `summary-${name}-failed.png`) });
          throw error;
        });
        const box = await panel(page).boundingBox();
        if (name !== 'phone') expect(box!.width).toBeGreaterThanOrEqual(viewport.width * 0.25 - 2);
        await page.screenshot({ path: path.join(SHOTS, `summary-${name}.png`) });
      } finally {
        await context.close();
      }
    }
  });
});

describe('summary panel with an OpenAI-compatible LLM', () => {
  let app: TestApp;
  let browser: Browser;
  let llm: OpenAiTestServer;
  let turns: SeedLine[];
  /** A long answer, so the stream (one word every 2 ms from the test server) lasts seconds. */
  const longAnswer = Array.from({ length: 60 }, (_, i) => `- Point ${i + 1}: the team discussed the remote control design and its costs in some detail.`).join('\n');
  const isTranslation = (body: ChatCompletionBody) => body.messages.some((m) => m.content.includes('Translate the HTML'));

  beforeAll(async () => {
    llm = await startOpenAiTestServer({
      responder: (body) => (isTranslation(body) ? '<ul><li>Zespół omówił projekt pilota.</li></ul>' : longAnswer),
    });
    [app, browser, turns] = await Promise.all([
      startWebApp({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: llm.url, LLM_MAX_RETRIES: 0, SUMMARY_PROMPT_LIST: 'alternate' }),
      launchBrowser(),
      readQmsumTurns('ES2004a', 60),
    ]);
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await llm?.close();
  });

  it('offers the alternate list, streams tokens progressively, translates once and reuses it, resets the language', async () => {
    const email = 'llm@example.com';
    const token = await app.signIn(email);
    const { meetingKey } = await seedMeeting(app, token, 'llm-es2004a', turns);
    const { context, page } = await openSignedIn(browser, app, { email, path: `/${meetingKey}` });
    try {
      await panelReady(page);
      // The server configured with SUMMARY_PROMPT_LIST=alternate.
      expect(await optionLabels(page)).toEqual(['Summary', 'Deep Summary', 'Main topics', 'Summary in 1 sentence']);
      await panel(page).getByRole('button', { name: 'Generate' }).click();

      // The in-progress state, and the text growing while it is written.
      const streaming = panel(page).getByTestId('summary-streaming');
      await streaming.waitFor();
      expect(await streaming.getByText('Generating…').isVisible()).toBe(true);
      const lengths: number[] = [];
      while (await streaming.isVisible()) {
        const text = await streaming.getByTestId('summary-stream-text').innerText().catch(() => '');
        if (text) lengths.push(text.length);
        if (lengths.length === 5) await page.screenshot({ path: path.join(SHOTS, 'summary-streaming.png') });
        await page.waitForTimeout(50);
      }
      const distinct = [...new Set(lengths)];
      expect(distinct.length).toBeGreaterThanOrEqual(2);
      expect(distinct).toEqual([...distinct].sort((a, b) => a - b));
      await summaryText(page).waitFor();
      expect(await summaryText(page).locator('li').count()).toBe(60);

      // A new language is translated once (loading state, then shown)…
      const calls = watchCalls(page);
      await languagePicker(page).selectOption('pl');
      await panel(page).getByText('Zespół omówił projekt pilota.').waitFor();
      expect(calls.filter((c) => c === 'summary.translate')).toHaveLength(1);
      // …English shows the original, and picking Polish again reuses the translation without a call.
      await languagePicker(page).selectOption('en');
      await panel(page).getByText('Point 1: the team discussed').waitFor();
      await languagePicker(page).selectOption('pl');
      await panel(page).getByText('Zespół omówił projekt pilota.').waitFor();
      expect(calls.filter((c) => c === 'summary.translate')).toHaveLength(1);

      // Regenerate resets the language to English.
      await panel(page).getByRole('button', { name: 'Regenerate' }).click();
      await poll(() => languagePicker(page).inputValue()).toBe('en');
      await poll(() => panel(page).getByText('Regenerating…').count()).toBe(0);
      // Changing the prompt type resets it too.
      await languagePicker(page).selectOption('pl');
      await panel(page).getByText('Zespół omówił projekt pilota.').waitFor();
      await promptPicker(page).selectOption({ label: 'Deep Summary' });
      expect(await languagePicker(page).inputValue()).toBe('en');
      await panel(page).getByTestId('summary-streaming').waitFor();
      await summaryText(page).waitFor({ timeout: 30_000 });

      // An LLM failure is toasted once (no silent reconnect and second generation).
      const before = llm.requests.length;
      llm.enqueue({ status: 500, message: 'model crashed' });
      await promptPicker(page).selectOption({ label: 'Main topics' });
      await toast(page, ERROR_TOAST).waitFor({ timeout: 30_000 });
      await panel(page).getByRole('button', { name: 'Generate' }).waitFor();
      await page.waitForTimeout(1500);
      expect(llm.requests.length - before).toBe(1);
    } finally {
      await context.close();
    }
  });

  it("shows a free user what is left next to Generate and Ask, counts down after each generation, then toasts 'Daily limit reached'", async () => {
    const email = 'quota@example.com';
    const token = await app.signIn(email);
    const { meetingKey } = await seedMeeting(app, token, 'quota-es2004a', turns);
    const user = await app.deps.db.user.findUniqueOrThrow({ where: { email } });
    // Seven generations earlier today.
    await app.deps.db.dailyUsage.create({ data: { subject: user.id, day: usageDay(), kind: AI_GENERATION_KIND, count: 7 } });
    const { context, page } = await openSignedIn(browser, app, { email, path: `/${meetingKey}` });
    try {
      await panelReady(page);
      const left = (scope: Page | ReturnType<typeof panel>) => scope.getByTestId('ai-usage-left');
      await poll(() => left(panel(page)).innerText().catch(() => '')).toBe('3 of 10 AI summaries left today');
      await page.screenshot({ path: path.join(SHOTS, 'summary-left-today.png') });
      await panel(page).getByRole('button', { name: 'Generate' }).click();
      await summaryText(page).waitFor({ timeout: 30_000 });

      // The Ask tab shows the count after the summary, and counts its own answer.
      const ask = page.getByTestId('ask-panel');
      await page.getByRole('tab', { name: 'Ask' }).click();
      await poll(() => left(ask).innerText().catch(() => '')).toBe('2 of 10 AI summaries left today');
      await ask.getByRole('textbox', { name: 'Your question' }).fill('What did they decide about the remote?');
      await ask.getByRole('button', { name: 'Send' }).click();
      await poll(() => left(ask).innerText().catch(() => '')).toBe('1 of 10 AI summaries left today');
      await page.screenshot({ path: path.join(SHOTS, 'ask-left-today.png') });

      await page.getByRole('tab', { name: 'Summary' }).click();
      await promptPicker(page).selectOption({ label: 'Main topics' });
      await summaryText(page).waitFor({ timeout: 30_000 });
      // The last one is spent: the next type is refused, nothing is generated, and the note says so.
      const before = llm.requests.length;
      await promptPicker(page).selectOption({ label: 'Summary in 1 sentence' });
      await toast(page, DAILY_LIMIT_REACHED).waitFor();
      await panel(page).getByRole('button', { name: 'Generate' }).waitFor();
      await poll(() => left(panel(page)).innerText().catch(() => '')).toBe('0 of 10 AI summaries left today');
      expect(llm.requests.length).toBe(before);
      await toast(page, DAILY_LIMIT_REACHED).waitFor({ state: 'detached', timeout: TOAST_DURATION_MS + 3000 });
    } finally {
      await context.close();
    }
  });
});
