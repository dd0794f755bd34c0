// Screenshots of each main screen at desktop, laptop and phone width, taken from the real server (test
// harness: fresh database, offline AI engine) serving the built web app, with realistic seeded meetings.
// Run: npm run build -w @mbox/web && npm run screenshots   (E2E_WEB_DIST=<dir> to use another build;
// SCREENS=settings,settings-ai to take only those screens)
// Writes docs/screenshots/<screen>-<width>.png.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '../apps/server/src/db/paths.js';
import { makePremium } from '../apps/server/src/test/fixtures.js';
import type { TestApp } from '../apps/server/src/test/app.js';
import { launchBrowser, openSignedIn, startWebApp, VIEWPORTS, webDist } from '../tests/e2e/support/browser.js';
import { readQmsumTurns } from '../tests/fixtures/meet/replay.js';

const OUT_DIR = path.join(repoRoot, 'docs/screenshots');
const EMAIL = 'dana.whitfield@example.com';
/** A new account with no meeting yet: the first run. */
const NEW_EMAIL = 'new.user@example.com';
const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60_000;

/** Meetings spread over the past weeks: [QMSum transcript, title, days ago, hour of day, minutes long]. */
const MEETINGS: [string, string, number, number, number][] = [
  ['ES2004a', 'Remote control kick-off', 0, 10, 38],
  ['IS1003b', 'Functional design review', 1, 14, 52],
  ['education_4', 'School reopening committee', 3, 9, 64],
  ['ES2004a', 'Product team weekly', 8, 11, 31],
  ['IS1003b', 'Interface prototype walkthrough', 12, 15, 47],
  ['education_4', 'Budget planning', 17, 13, 58],
  ['ES2004a', 'Marketing sync', 24, 16, 26],
  ['IS1003b', 'Usability findings', 33, 10, 41],
  ['education_4', 'Board update', 45, 9, 73],
];

interface Screen {
  name: string;
  path: string;
  signedIn: boolean;
  /** The account signed in, when not the seeded one. */
  email?: string;
  /** What shows that the screen has finished loading. */
  ready: (page: Page) => Promise<unknown>;
}

async function seed(app: TestApp): Promise<{ token: string; openMeeting: string; sharedPath: string }> {
  const token = await app.signIn(EMAIL);
  await app.rest('PUT', '/v1/user-settings', { token, body: { timezone: 'Europe/Berlin' } });
  await makePremium(app, EMAIL);
  const keys: string[] = [];
  for (const [index, [transcript, title, daysAgo, hour, minutes]] of MEETINGS.entries()) {
    const day = new Date(Date.now() - daysAgo * DAY_MS);
    day.setHours(hour, 0, 0, 0);
    const startedAt = Math.min(day.getTime(), Date.now() - (minutes + 5) * MINUTE_MS);
    const sessionId = `screenshot-${index}`;
    const turns = await readQmsumTurns(transcript, 60);
    // Lines spread over the meeting's length, so talk time per speaker looks like a real meeting's.
    const step = Math.floor((minutes * MINUTE_MS) / (turns.length + 1));
    const ingest = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
      token,
      body: {
        meeting: { sessionId, meetCode: 'abc-defg-hij', title, startedAt },
        lines: turns.map((turn, i) => ({
          captionId: `c${i}`,
          revision: 0,
          speaker: turn.speaker,
          text: turn.text,
          spokenAt: startedAt + (i + 1) * step,
          final: true,
        })),
      },
    });
    if (ingest.status !== 200) throw new Error(`ingest failed: ${ingest.status} ${JSON.stringify(ingest.body)}`);
    const { meetingKey } = ingest.body;
    await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId, finishedAt: startedAt + minutes * MINUTE_MS } });
    keys.push(meetingKey);
  }
  // A few analysed meetings, the open one among them.
  for (const key of keys.slice(0, 4)) {
    const summary = await app.rest('POST', '/v1/prompts', { token, body: { meetKey: key, promptKey: 'summary' } });
    if (summary.status !== 200) console.warn(`summary for ${key}: ${summary.status} ${JSON.stringify(summary.body)}`);
  }
  const share = await app.rest<{ url: string }>('POST', `/v1/meeting/${keys[0]}/share`, { token });
  return { token, openMeeting: keys[0]!, sharedPath: new URL(share.body.url).pathname };
}

const visible = (page: Page, selector: string) => page.locator(selector).first().waitFor({ timeout: 15_000 });

async function shoot(browser: Browser, app: TestApp, screen: Screen, width: keyof typeof VIEWPORTS): Promise<void> {
  const viewport = VIEWPORTS[width];
  const file = path.join(OUT_DIR, `${screen.name}-${viewport.width}.png`);
  let context;
  let page: Page;
  if (screen.signedIn) {
    ({ context, page } = await openSignedIn(browser, app, { email: screen.email ?? EMAIL, path: screen.path, viewport }));
  } else {
    context = await browser.newContext({ viewport });
    page = await context.newPage();
    await page.goto(`${app.url}${screen.path}`);
  }
  try {
    await screen.ready(page).catch((error: unknown) => console.warn(`${screen.name} at ${viewport.width}: not ready (${String(error)})`));
    // Let fonts, charts and streamed content settle before the picture.
    await page.waitForTimeout(800);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`wrote ${path.relative(repoRoot, file)}`);
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  console.log(`web app from ${webDist}`);
  await mkdir(OUT_DIR, { recursive: true });
  const app = await startWebApp();
  const browser = await launchBrowser();
  try {
    const { openMeeting, sharedPath } = await seed(app);
    const screens: Screen[] = [
      { name: 'login', path: '/login', signedIn: false, ready: (p) => p.getByRole('heading', { name: 'Login now!' }).waitFor() },
      {
        name: 'dashboard',
        path: '/',
        signedIn: true,
        ready: async (p) => {
          await visible(p, '[data-testid="meeting-item"]');
          // At phone width the list shows first; the dashboard is a tab away.
          if ((p.viewportSize()?.width ?? 0) >= 768) await visible(p, 'canvas[aria-label="Talk time per speaker"]');
        },
      },
      { name: 'meeting', path: `/${openMeeting}`, signedIn: true, ready: (p) => p.getByRole('tablist').or(p.locator('[data-panel]#summary')).first().waitFor() },
      { name: 'search', path: '/search?q=design', signedIn: true, ready: (p) => visible(p, 'mark') },
      {
        name: 'ask-all',
        path: `/ask?${new URLSearchParams({ q: 'What did we decide about the remote control last month?' }).toString()}`,
        signedIn: true,
        // The link fills the question in; the picture is of its answer.
        ready: async (p) => {
          await p.getByRole('button', { name: 'Ask', exact: true }).click();
          await visible(p, '[data-testid="ask-engine"]');
        },
      },
      // The items the ended meetings left (read by a job after each end).
      { name: 'action-items', path: '/action-items?status=all', signedIn: true, ready: (p) => visible(p, '[data-testid="action-item"]') },
      { name: 'shared', path: sharedPath, signedIn: false, ready: (p) => visible(p, 'main h1') },
      { name: 'dashboard-only', path: '/dashboard', signedIn: true, ready: (p) => visible(p, 'canvas[aria-label="Talk time per speaker"]') },
      { name: 'tools', path: '/tools', signedIn: true, ready: (p) => visible(p, 'main h1') },
      { name: 'public', path: '/public', signedIn: false, ready: (p) => visible(p, 'main h1') },
      { name: 'settings', path: '/settings', signedIn: true, ready: (p) => visible(p, 'main h1') },
      // Settings › AI, as an administrator of a server with no model installed yet: the offline engine answers.
      { name: 'settings-ai', path: '/settings?tab=ai', signedIn: true, ready: (p) => visible(p, '[data-testid="ai-engine"]') },
      { name: 'not-found', path: '/no/such/page', signedIn: true, ready: (p) => p.getByRole('heading', { name: 'Page not found' }).waitFor() },
      {
        name: 'meeting-not-found',
        path: '/no-such-meeting',
        signedIn: true,
        ready: (p) => p.getByRole('heading', { name: 'Meeting not found' }).waitFor(),
      },
      // No extension in this browser: the screens say so once the handshake found no answer.
      { name: 'first-run', path: '/', signedIn: true, email: NEW_EMAIL, ready: (p) => visible(p, '[data-testid="extension-status"][data-state="missing"]') },
      {
        name: 'onboarding-extension',
        path: '/onboarding/join-meeting',
        signedIn: true,
        email: NEW_EMAIL,
        ready: (p) => visible(p, '[data-testid="extension-status"][data-state="missing"]'),
      },
    ];
    const only = process.env.SCREENS?.split(',');
    for (const screen of screens.filter((s) => !only || only.includes(s.name))) {
      for (const width of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) await shoot(browser, app, screen, width);
    }
  } finally {
    await browser.close();
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
