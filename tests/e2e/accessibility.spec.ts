import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedMeeting } from '../../apps/server/src/test/fixtures.js';
import { openSignedIn, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

/**
 * The routes of the web app's route table, as a signed-out visitor and a signed-in user
 * reach them. A signed-out visit to any signed-in route lands on /login, audited once.
 */
const SIGNED_OUT_ROUTES = ['/login', '/public', '/public/summarization', '/public/youtube', '/uninstall'];
const SIGNED_IN_ROUTES = [
  '/',
  '/{id}',
  '/dashboard',
  '/settings',
  '/settings?tab=summary',
  '/settings?tab=account',
  '/settings?tab=tokens',
  '/tools',
  '/tools/summarization',
  '/tools/youtube',
  '/changelog',
  '/subscribe',
  '/payment-succeeded',
  '/payment-failed',
  '/outbox',
  '/ask',
  '/action-items',
];
/** Seen by an account that has not finished onboarding. */
const ONBOARDING_ROUTES = ['/onboarding', '/onboarding/welcome', '/onboarding/join-meeting', '/onboarding/security', '/onboarding/summary'];

const SIZES = [
  ['1280', VIEWPORTS.desktop],
  ['390', VIEWPORTS.phone],
] as const;

/** The page has drawn its content: a main region or heading is visible and no spinner is left. */
async function settled(page: Page): Promise<void> {
  await expect
    .poll(async () => await page.locator('main:visible, h1:visible, h2:visible, h3:visible').count(), { timeout: 20_000, message: `nothing drawn on ${page.url()}` })
    .toBeGreaterThan(0);
  await expect
    .poll(async () => await page.locator('.loading:visible').count(), { timeout: 20_000, message: `a spinner stays on ${page.url()}` })
    .toBe(0);
  // Entrance transitions (dropdowns, toasts) end before colours are measured.
  await page.waitForTimeout(150);
}

/**
 * axe-core's own browser build, evaluated in the page (as its Playwright wrapper does, so the app's
 * script-src policy does not apply); the wrapper itself wants a newer Node than `engines` admits.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page as it is now, one line each. */
async function seriousViolations(page: Page, label: string): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => (window as unknown as { axe: { run: () => Promise<AxeResults> } }).axe.run());
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((node) => `${label}: ${v.id} (${v.impact}) ${node.target.join(' ')} — ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`));
}

/** Visits each route in one page at each size, collecting what axe finds. */
async function audit(page: Page, baseUrl: string, routes: readonly string[], resolve: (route: string) => string = (r) => r): Promise<string[]> {
  const found: string[] = [];
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    for (const route of routes) {
      await page.goto(`${baseUrl}${resolve(route)}`);
      await settled(page);
      found.push(...(await seriousViolations(page, `${route} @${size}`)));
    }
  }
  return found;
}

describe('accessibility: axe-core over every route, signed in and out, at 1280 and 390 px', () => {
  const web = webAppAndBrowser();

  it('finds no serious or critical violation on the signed-out routes', { timeout: 180_000 }, async () => {
    const context = await web.browser.newContext();
    const page = await context.newPage();
    expect(await audit(page, web.app.url, SIGNED_OUT_ROUTES)).toEqual([]);
    await context.close();
  });

  it('finds no serious or critical violation on the signed-in routes', { timeout: 300_000 }, async () => {
    const { context, page, token } = await openSignedIn(web.browser, web.app, { email: 'a11y@example.com' });
    const { meetingKey } = await seedMeeting(web.app, token, 'a11y-1', [
      { speaker: 'Ana Lima', text: 'Shall we go through the launch checklist?' },
      { speaker: 'Bo Chen', text: 'Yes: the landing page copy is done, the pricing page needs review.' },
      { speaker: 'Ana Lima', text: 'I will review pricing by Friday.' },
    ], Date.now() - 2 * 3_600_000);
    await seedMeeting(web.app, token, 'a11y-2', [{ speaker: 'Bo Chen', text: 'A short second meeting.' }], Date.now() - 26 * 3_600_000);
    // The ledger with an item (an overdue one, the owner's line linked), as a meeting's end leaves it.
    const meeting = await web.app.deps.db.meeting.findUniqueOrThrow({ where: { id: meetingKey }, include: { messages: { orderBy: { spokenAt: 'asc' } } } });
    const line = meeting.messages[2]!;
    await web.app.deps.db.actionItem.create({
      data: {
        userId: meeting.userId,
        meetingId: meetingKey,
        meetingStartedAt: meeting.startedAt,
        position: 0,
        sourceKey: `line:${line.id}`,
        text: 'Review pricing.',
        owner: 'Ana Lima',
        dueDate: new Date('2026-01-02T00:00:00Z'),
        messageId: line.id,
        speaker: line.user,
        spokenAt: line.spokenAt,
      },
    });
    const found = await audit(page, web.app.url, SIGNED_IN_ROUTES, (route) => route.replace('{id}', meetingKey));
    expect(found).toEqual([]);
    await context.close();
  });

  it('shows where keyboard focus is on every element Tab reaches: header, More, search, date groups, handles', { timeout: 120_000 }, async () => {
    const { context, page, token } = await openSignedIn(web.browser, web.app, { email: 'keyboard@example.com' });
    const { meetingKey } = await seedMeeting(web.app, token, 'keys-1', [
      { speaker: 'Ana Lima', text: 'Keyboard users see where they are.' },
      { speaker: 'Bo Chen', text: 'On every control.' },
    ], Date.now() - 3_600_000);
    await page.goto(`${web.app.url}/${meetingKey}`);
    await page.getByText('On every control.').waitFor();
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    const seen: { name: string; ring: string }[] = [];
    for (let i = 0; i < 45; i++) {
      await page.keyboard.press('Tab');
      seen.push(
        await page.evaluate(() => {
          const el = document.activeElement as HTMLElement;
          const style = getComputedStyle(el);
          const name = `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[${el.getAttribute('role')}]` : ''} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}`;
          const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
          return { name, ring: outline ? 'visible' : `none (outline ${style.outlineStyle} ${style.outlineWidth})` };
        }),
      );
    }
    // Tab cycles through the page and out of it (to the body) and on again.
    const reached = seen.filter((s) => !s.name.startsWith('body'));
    expect(reached.filter((s) => s.ring !== 'visible')).toEqual([]);
    // The ones that had no ring: all reached, all with it.
    const names = reached.map((s) => s.name).join('\n');
    for (const expected of [/^a Last meetings/m, /^summary More/m, /^input /m, /^summary [A-Z][a-z]+day, /m, /^div\[separator\]/m]) {
      expect(names, names).toMatch(expected);
    }
    await context.close();
  });

  it('finds no serious or critical violation on the onboarding steps', { timeout: 180_000 }, async () => {
    const context = await web.browser.newContext();
    const signIn = await context.request.post(`${web.app.url}/trpc/auth.signIn?batch=1`, { data: { 0: { email: 'new@example.com' } } });
    expect(signIn.ok()).toBe(true);
    const page = await context.newPage();
    expect(await audit(page, web.app.url, ONBOARDING_ROUTES)).toEqual([]);
    await context.close();
  });
});
