import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import SrtParser from 'srt-parser-2';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_FORMAT_LABELS, EXPORT_FORMATS, meetingExportSchema, type ExportFormat } from '@mbox/shared';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { openSignedIn, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

/** Where the screenshots of the header and menu go (looked at by hand; not committed by this test). */
const SHOTS = process.env.EXPORT_SHOTS_DIR ?? '/tmp/export-shots';

const START = Date.UTC(2026, 10, 20, 15, 0);
const TITLE = 'Quarterly planning — планёрка';
const LINES = [
  { speaker: 'Ana López', text: 'Let us start with the roadmap.' },
  { speaker: 'Борис', text: 'Привет! Я подготовил отчёт.' },
  { speaker: 'Ana López', text: 'Great, export it after the call.' },
];

async function seedMeeting(app: TestApp, token: string): Promise<string> {
  const ingest = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
    token,
    body: {
      meeting: { sessionId: 'export-e2e', meetCode: 'abc-defg-hij', startedAt: START, title: TITLE, participants: ['Ana López', 'Борис'] },
      lines: LINES.map((line, i) => ({ captionId: `c${i}`, revision: 0, speaker: line.speaker, text: line.text, spokenAt: START + i * 5000, final: true })),
    },
  });
  if (ingest.status !== 200) throw new Error(`ingest failed: ${ingest.status}`);
  await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId: 'export-e2e', finishedAt: START + 30 * 60_000 } });
  const meetingId = ingest.body.meetingKey;
  await app.deps.db.summary.create({
    data: { meetingId, promptKey: 'summary', type: 'summary', title: 'Summary', text: '<h2>Decisions</h2><ul><li>Ship the roadmap</li></ul>' },
  });
  return meetingId;
}

const exportButton = (page: Page) => page.getByTestId('export-menu').locator('summary');

/** Opens the menu, clicks the format's item and returns the download's name and text. */
async function exportAs(page: Page, format: ExportFormat): Promise<{ name: string; body: Buffer }> {
  await exportButton(page).click();
  const item = page.getByRole('button', { name: new RegExp(`^${EXPORT_FORMAT_LABELS[format].replace(/[()]/g, '\\$&')}`) });
  const [download] = await Promise.all([page.waitForEvent('download'), item.click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), body: await readFile(file) };
}

describe('meeting export in the browser', () => {
  const web = webAppAndBrowser();
  let meetingId: string;
  let token: string;

  beforeAll(async () => {
    token = await web.app.signIn('export@example.com');
    meetingId = await seedMeeting(web.app, token);
    await mkdir(SHOTS, { recursive: true });
  });

  it('downloads every format from the Export menu without leaving the page', async () => {
    const { page, context } = await openSignedIn(web.browser, web.app, { email: 'export@example.com', path: `/${meetingId}` });
    await page.getByTestId('transcript-message').first().waitFor();
    const url = page.url();
    await exportButton(page).click();
    const items = page.getByTestId('export-menu').getByRole('button');
    expect(await items.allInnerTexts()).toEqual(EXPORT_FORMATS.map((f) => expect.stringContaining(EXPORT_FORMAT_LABELS[f])));
    await page.screenshot({ path: path.join(SHOTS, 'export-menu-1280.png'), animations: 'disabled' });
    await page.keyboard.press('Escape');

    const stem = `${TITLE}-2026-11-20`;
    const files = new Map<ExportFormat, { name: string; body: Buffer }>();
    for (const format of EXPORT_FORMATS) files.set(format, await exportAs(page, format));
    expect(page.url()).toBe(url);
    for (const format of EXPORT_FORMATS) expect(files.get(format)!.name).toBe(`${stem}.${format}`);

    const md = files.get('md')!.body.toString('utf8');
    expect(md).toContain(`# ${TITLE}`);
    expect(md).toContain('#### Decisions\n\n- Ship the roadmap');
    expect(md).toMatch(/\*\*Борис\*\* \(\d\d:\d\d\): Привет! Я подготовил отчёт\./);
    expect(files.get('txt')!.body.toString('utf8')).toContain('Ana López: Great, export it after the call.');
    const srt = new SrtParser().fromSrt(files.get('srt')!.body.toString('utf8'));
    expect(srt.map((cue) => cue.text)).toEqual(LINES.map((l) => `${l.speaker}: ${l.text}`));
    expect(srt[1]!.startTime).toBe('00:00:05,000');
    const vtt = files.get('vtt')!.body.toString('utf8');
    expect(vtt).toMatch(/^WEBVTT/);
    expect(vtt).toContain('00:00:05.000 --> ');
    expect(vtt).toContain('<v Борис>Привет! Я подготовил отчёт.');
    const json = meetingExportSchema.parse(JSON.parse(files.get('json')!.body.toString('utf8')));
    expect(json.meeting.messages.map((m) => m.text)).toEqual(LINES.map((l) => l.text));
    expect(json.summaries.summaries[0]?.title).toBe('Summary');
    expect(files.get('pdf')!.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await context.close();
  });

  it('is a keyboard menu, and fits the header on a phone as an icon button', async () => {
    const { page, context } = await openSignedIn(web.browser, web.app, { email: 'export@example.com', path: `/${meetingId}`, viewport: VIEWPORTS.phone });
    await page.getByTestId('transcript-message').first().waitFor();
    const header = page.getByTestId('transcript-header');
    const box = (await header.boundingBox())!;
    expect(await header.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const button = (await exportButton(page).boundingBox())!;
    expect(button.x + button.width).toBeLessThanOrEqual(box.x + box.width);
    await expect.poll(() => exportButton(page).innerText()).toBe('Export');
    expect(await exportButton(page).evaluate((el) => el.querySelector('.max-sm\\:sr-only') !== null)).toBe(true);

    // Keyboard: focus the button, open with Enter, move with the arrows, download with Enter.
    await exportButton(page).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: /^Markdown/ }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'export-menu-390.png'), animations: 'disabled' });
    const menu = (await page.getByTestId('export-menu').locator('ul').boundingBox())!;
    expect(menu.x).toBeGreaterThanOrEqual(0);
    expect(menu.x + menu.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-export-format'))).toBe('txt');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/-2026-11-20\.txt$/);
    // Escape closes the menu and leaves the focus on its button.
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: /^PDF/ }).waitFor();
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('export-menu').evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');
    await context.close();
  });
});
