import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARIZER_DAILY_LIMIT } from '@mbox/shared/tools';
import { LOGIN_LOCAL } from '@mbox/shared/ui-messages';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { makePremium } from '../../apps/server/src/test/fixtures.js';
import { launchBrowser, openSignedIn, startWebApp } from './support/browser.js';

const ARTICLE_TITLE = 'Riverside Park Gets a Second Life';
const ARTICLE_PARAGRAPHS = [
  'The city council voted on Tuesday to restore Riverside Park, the oldest public garden in town, after years of neglect left its paths cracked and its fountain dry.',
  'Residents had asked for more trees, new benches and a playground. The approved plan includes all three, along with lighting along the river walk so the park can stay open in the evening.',
  'The restoration will cost two million dollars. Most of the money comes from a state grant for green spaces; the rest is taken from the parks budget over the next three years.',
  'Work starts in March and should be finished before the summer festival. The mayor said the council will hold a public hearing next month to settle the design of the playground.',
];
const ARTICLE_HTML = `<!doctype html><html><head><title>${ARTICLE_TITLE} | Town Gazette</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>${ARTICLE_TITLE}</h1>${ARTICLE_PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}</article>
<footer>© Town Gazette</footer></body></html>`;

const NOTES =
  'The product team met to plan the spring release. Maria will finish the new onboarding screens by Friday. ' +
  'The team decided to postpone the dark mode until the next quarter because the design is not ready. ' +
  'Support tickets about slow exports doubled last month, so Tom will profile the export job this week. ' +
  'Everyone agreed to demo the release to customers on the first Monday of April.';

const VIDEO_ID = 'dQw4w9WgXcQ';
const VIDEO_TITLE = 'How Parks Shape Cities';
const CAPTIONS = [
  'Welcome back to the channel, today we talk about city parks.',
  'Parks give people a place to meet, to play and to rest.',
  'Cities that invest in parks see healthier residents and stronger local businesses.',
  'Trees in parks cool the streets around them during hot summers.',
  'Small parks close to homes are used more often than large parks far away.',
  'Thanks for watching, and see you in the next video.',
];

/** A web page server the link summarizer may fetch (named in SUMMARIZER_ALLOWED_HOSTS). */
function startArticleServer(): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url === '/article') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(ARTICLE_HTML);
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * YouTube as the server's client reads it (YOUTUBE_BASE_URL): the innertube player answer with the
 * video's details and caption tracks, and the classic timed-text XML of the captions.
 */
function startYouTubeServer(): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://youtube.test');
    if (request.method === 'POST' && url.pathname === '/youtubei/v1/player') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          playabilityStatus: { status: 'OK' },
          videoDetails: { videoId: VIDEO_ID, title: VIDEO_TITLE, author: 'Urban Explained', lengthSeconds: '754' },
          captions: {
            playerCaptionsTracklistRenderer: {
              captionTracks: [{ baseUrl: `https://www.youtube.com/api/timedtext?v=${VIDEO_ID}&lang=en`, languageCode: 'en' }],
            },
          },
        }),
      );
      return;
    }
    if (url.pathname === '/api/timedtext') {
      response.writeHead(200, { 'content-type': 'text/xml' });
      const lines = CAPTIONS.map((line, i) => `<text start="${i * 4}" dur="4">${line}</text>`).join('');
      response.end(`<?xml version="1.0" encoding="utf-8" ?><transcript>${lines}</transcript>`);
      return;
    }
    response.writeHead(404);
    response.end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;
const closeServer = (server: Server | undefined) => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

const summarizeButton = (page: Page) => page.getByRole('button', { name: 'Summarize', exact: true });
const errorAlert = (page: Page) => page.getByRole('main').getByRole('alert');

/** The summarizer calls the page makes from now on, as 'METHOD procedure'. */
function trpcCallsOf(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const match = /\/trpc\/(tools\.[A-Za-z]+)/.exec(request.url());
    if (match) calls.push(`${request.method()} ${match[1]}`);
  });
  return calls;
}

/** The summary once written: its HTML container, after 'Summarizing...' is gone. */
async function summaryOf(page: Page): Promise<{ summary: string; metadata: string }> {
  const summary = page.getByTestId('summary-html');
  await summary.waitFor({ timeout: 60_000 });
  expect(await page.getByText('Summarizing...').count()).toBe(0);
  return { summary: await summary.innerText(), metadata: await page.getByTestId('summary-metadata').innerText() };
}

/** product.md, Validation: the field is highlighted red (the error colour of the message under it) and marked invalid. */
async function expectRedField(field: Locator, message: Locator): Promise<void> {
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  const [border, text] = await Promise.all([
    field.evaluate((el) => getComputedStyle(el).borderTopColor),
    message.evaluate((el) => getComputedStyle(el).color),
  ]);
  expect(border).toBe(text);
}

describe('summarizer tools: landings, pages, validation, results and limits', () => {
  let app: TestApp;
  let browser: Browser;
  let articles: Server;
  let youtube: Server;

  beforeAll(async () => {
    [articles, youtube] = await Promise.all([startArticleServer(), startYouTubeServer()]);
    app = await startWebApp({
      SUMMARIZER_ALLOWED_HOSTS: [`127.0.0.1:${portOf(articles)}`],
      YOUTUBE_BASE_URL: `http://127.0.0.1:${portOf(youtube)}`,
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await Promise.all([closeServer(articles), closeServer(youtube)]);
  });

  async function publicPage(path: string): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${app.url}${path}`);
    return page;
  }

  it('/tools shows AI Tools (New) with cards to the internal summarizers, which render', async () => {
    const { context, page } = await openSignedIn(browser, app, { path: '/tools' });
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: 'AI Tools' }).waitFor();
    expect(await main.getByText('New', { exact: true }).count()).toBe(1);
    expect(await main.getByRole('link', { name: /Summarizer/ }).getAttribute('href')).toBe('/tools/summarization');
    expect(await main.getByRole('link', { name: /YouTube/ }).getAttribute('href')).toBe('/tools/youtube');

    await main.getByRole('link', { name: /YouTube/ }).click();
    await page.getByRole('heading', { name: 'YouTube Summarizer' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/tools/youtube');
    await page.goto(`${app.url}/tools/summarization`);
    await page.getByRole('heading', { name: 'Summarizer', exact: true }).waitFor();
    expect(await page.getByPlaceholder('Enter your text here...').getAttribute('rows')).toBe('12');
    await context.close();
  });

  it('/public shows the cards to the public summarizers and the pricing; Get Premium goes to /login?redirect=subscribe', async () => {
    const page = await publicPage('/public');
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: 'AI Tools' }).waitFor();
    expect(await main.getByRole('link', { name: /Summarizer/ }).getAttribute('href')).toBe('/public/summarization');
    expect(await main.getByRole('link', { name: /YouTube/ }).getAttribute('href')).toBe('/public/youtube');

    const free = main.getByRole('listitem', { name: 'Free' });
    for (const feature of ['Up to 10 summaries per day', 'Basic AI model', '1,000 words per summary']) {
      expect(await free.getByText(feature, { exact: true }).count()).toBe(1);
    }
    const pro = main.getByRole('listitem', { name: 'All in One Pro Plan' });
    expect(await pro.innerText()).toMatch(/\$7\.99\s*per month/);
    const summarizer = main.getByRole('listitem', { name: 'Premium Summarizer Plan' });
    expect(await summarizer.innerText()).toMatch(/\$3\.99\s*per month/);

    const buttons = main.getByRole('link', { name: 'Get Premium' });
    expect(await buttons.count()).toBe(2);
    for (const href of await buttons.evaluateAll((links) => links.map((a) => a.getAttribute('href')))) {
      expect(href).toBe('/login?redirect=subscribe');
    }
    await buttons.first().click();
    await page.getByRole('button', { name: LOGIN_LOCAL }).waitFor();
    const url = new URL(page.url());
    expect(url.pathname + url.search).toBe('/login?redirect=subscribe');
    await page.close();
  });

  it("public header: Utils menu, 'Log in' when logged out, 'MBox App' when logged in, Premium badge for premium users", async () => {
    const page = await publicPage('/public');
    const header = page.getByRole('banner');
    await header.getByRole('link', { name: 'Log in' }).waitFor();
    expect(await header.getByText('MBox App').count()).toBe(0);
    await header.getByText('Utils').click();
    await header.getByRole('link', { name: 'YouTube summary' }).click();
    await page.getByRole('heading', { name: 'YouTube Summarizer' }).waitFor();
    await header.getByText('Utils').click();
    await header.getByRole('link', { name: 'Text summary' }).click();
    await page.getByRole('heading', { name: 'Summarizer', exact: true }).waitFor();
    await page.close();

    const signedIn = await openSignedIn(browser, app, { path: '/public', email: 'visitor@example.com' });
    const signedHeader = signedIn.page.getByRole('banner');
    await signedHeader.getByRole('link', { name: 'MBox App' }).waitFor();
    expect(await signedHeader.getByRole('link', { name: 'MBox App' }).getAttribute('href')).toBe('/');
    expect(await signedHeader.getByText('Log in').count()).toBe(0);
    expect(await signedHeader.getByText('Premium', { exact: true }).count()).toBe(0);
    await signedIn.context.close();

    await makePremium(app, 'visitor@example.com');
    const premium = await openSignedIn(browser, app, { path: '/public', email: 'visitor@example.com' });
    await premium.page.getByRole('banner').getByText('Premium', { exact: true }).waitFor();
    await premium.context.close();
  });

  it('summarises pasted text end to end; only one of text and link is shown once one is filled', async () => {
    const page = await publicPage('/public/summarization');
    const text = page.getByPlaceholder('Enter your text here...');
    const link = page.getByLabel('Link', { exact: true });
    expect(await summarizeButton(page).isDisabled()).toBe(true);
    await link.fill('example.com');
    expect(await text.count()).toBe(0);
    await link.fill('');
    await text.fill(NOTES);
    expect(await link.count()).toBe(0);
    expect(await page.getByText(`${NOTES.length} / 50,000 characters`).count()).toBe(1);

    const calls = trpcCallsOf(page);
    await summarizeButton(page).click();
    const { summary, metadata } = await summaryOf(page);
    // Streamed: the summary arrives through the subscription (tokens as they are written).
    expect(calls).toEqual(['GET tools.summarizeStream']);
    // The offline engine picks sentences of the text: the summary is made of the notes' own words.
    expect(summary.length).toBeGreaterThan(20);
    expect(summary.split(/\s+/).filter((word) => NOTES.includes(word.replace(/[.,]$/, ''))).length).toBeGreaterThan(5);
    expect(metadata).toContain(`Words: ${NOTES.split(/\s+/).length}`);
    expect(await summarizeButton(page).isDisabled()).toBe(false);
    await page.close();
  });

  it('on a phone, the text box keeps its 12 rows within half the screen, and the summary is scrolled into view when it comes', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${app.url}/public/summarization`);
    const text = page.getByPlaceholder('Enter your text here...');
    // A long paste scrolls inside the box: the form stays put and the summary lands below the fold.
    await text.fill(Array.from({ length: 8 }, () => NOTES).join('\n\n'));
    expect((await text.boundingBox())!.height).toBeLessThanOrEqual(844 / 2 + 1);
    await summarizeButton(page).click();
    await summaryOf(page);
    const heading = page.getByRole('heading', { name: 'Summary', exact: true });
    await expect.poll(async () => (await heading.boundingBox())?.y ?? -1, { timeout: 10_000 }).toBeGreaterThanOrEqual(0);
    await expect.poll(async () => (await heading.boundingBox())?.y ?? 9_999, { timeout: 10_000 }).toBeLessThan(844 / 2);
    await context.close();
  });

  it('summarises a text too long for a streaming URL through the POST call', async () => {
    const page = await publicPage('/public/summarization');
    const long = Array.from({ length: 40 }, (_, i) => `Part ${i + 1}. ${NOTES}`).join('\n');
    await page.getByPlaceholder('Enter your text here...').fill(long);
    const calls = trpcCallsOf(page);
    await summarizeButton(page).click();
    const { metadata } = await summaryOf(page);
    expect(calls).toEqual(['POST tools.publicSummary']);
    expect(metadata).toContain(`Words: ${long.split(/\s+/).length.toLocaleString('en-US')}`);
    await page.close();
  });

  it('summarises ?text= on load (signed in)', async () => {
    const { context, page } = await openSignedIn(browser, app, {
      path: `/tools/summarization?text=${encodeURIComponent(NOTES)}`,
    });
    const { metadata } = await summaryOf(page);
    expect(metadata).toContain('Words:');
    expect(await page.getByPlaceholder('Enter your text here...').inputValue()).toBe(NOTES);
    await context.close();
  });

  it("shows the server's 400 message in the error alert", async () => {
    const page = await publicPage('/public/summarization');
    await page.getByPlaceholder('Enter your text here...').fill('Too short to summarise.');
    await summarizeButton(page).click();
    await errorAlert(page).waitFor();
    expect(await errorAlert(page).innerText()).toContain('at least 80 characters');
    await page.close();
  });

  it("marks bad links red: 'Invalid link', and 'Invalid YouTube link' on the YouTube page, with Summarize disabled", async () => {
    const page = await publicPage('/public/summarization');
    const link = page.getByLabel('Link', { exact: true });
    await link.fill('not a link');
    await expectRedField(link, page.getByText('Invalid link', { exact: true }));
    expect(await summarizeButton(page).isDisabled()).toBe(true);
    await link.fill('example.com/story');
    expect(await page.getByText('Invalid link', { exact: true }).count()).toBe(0);
    expect(await link.getAttribute('aria-invalid')).toBe('false');
    expect(await summarizeButton(page).isDisabled()).toBe(false);
    await page.close();

    const { context, page: tools } = await openSignedIn(browser, app, { path: '/tools/youtube' });
    const videoLink = tools.getByLabel('YouTube link');
    expect(await tools.getByPlaceholder('Enter your text here...').count()).toBe(0);
    await videoLink.fill('example.com/watch?v=abc');
    await expectRedField(videoLink, tools.getByText('Invalid YouTube link', { exact: true }));
    expect(await summarizeButton(tools).isDisabled()).toBe(true);
    await context.close();
  });

  it('summarises a web page from its link (a local article server)', async () => {
    const page = await publicPage('/public/summarization');
    await page.getByLabel('Link', { exact: true }).fill(`http://127.0.0.1:${portOf(articles)}/article`);
    await summarizeButton(page).click();
    const { summary, metadata } = await summaryOf(page);
    expect(metadata).toContain(`Title: ${ARTICLE_TITLE}`);
    expect(metadata).toContain('Site: 127.0.0.1');
    // The page's main content was summarised, not its navigation or footer.
    expect(summary).not.toContain('Town Gazette');
    expect(ARTICLE_PARAGRAPHS.some((p) => summary.includes(p.split(' ').slice(0, 5).join(' ')))).toBe(true);
    await page.close();
  });

  it('summarises a YouTube video from its captions, also when the link is typed on the Summarizer page', async () => {
    const page = await publicPage(`/public/youtube?link=${encodeURIComponent(`youtu.be/${VIDEO_ID}`)}`);
    const { summary, metadata } = await summaryOf(page);
    expect(metadata).toContain(`Title: ${VIDEO_TITLE}`);
    expect(metadata).toContain('Length: 12:34');
    expect(CAPTIONS.some((line) => summary.includes(line.split(' ').slice(0, 4).join(' ')))).toBe(true);

    await page.goto(`${app.url}/public/summarization`);
    await page.getByLabel('Link', { exact: true }).fill(`https://www.youtube.com/watch?v=${VIDEO_ID}`);
    await page.getByText('YouTube link: summarised from the video’s captions.').waitFor();
    await summarizeButton(page).click();
    expect((await summaryOf(page)).metadata).toContain(`Title: ${VIDEO_TITLE}`);
    await page.close();
  });

  // Last: it spends what is left of the day's public summaries of this address.
  it("over the daily limit, a public summary shows 'Daily limit reached' in the error alert", async () => {
    let refused = false;
    for (let i = 0; i < SUMMARIZER_DAILY_LIMIT && !refused; i++) {
      const answer = await app.rest('POST', '/v1/public/utils/summary', { body: { text: NOTES } });
      refused = answer.status === 429;
      if (!refused) expect(answer.status).toBe(200);
    }
    const page = await publicPage(`/public/summarization?text=${encodeURIComponent(NOTES)}`);
    await errorAlert(page).waitFor();
    expect(await errorAlert(page).innerText()).toContain('Daily limit reached');
    // product.md, Errors: the daily limit is also toasted (the toast area lies outside the page).
    expect(await page.getByRole('alert').filter({ hasText: 'Daily limit reached' }).count()).toBe(2);
    expect(await page.getByTestId('summary-html').count()).toBe(0);
    await page.close();
  });
});
