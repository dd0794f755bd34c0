import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENTS_NOT_CONFIGURED } from '../../apps/server/src/modules/billing/service.js';
import type { TestApp } from '../../apps/server/src/test/app.js';
import { startStripeServer, type StripeServer } from '../../apps/server/src/test/stripe-server.js';
import { launchBrowser, openSignedIn, startWebApp, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

/** Where the screenshots go (looked at by hand; not committed by this test). */
const SHOTS = process.env.PLANS_SHOTS_DIR ?? '/tmp/plans-e2e-shots';

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** The Account tab's date format (en-US long date in the browser's zone, which is this machine's). */
const longDate = (epochSeconds: number) => new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date(epochSeconds * 1000));

const proCard = (page: Page) => page.getByRole('listitem', { name: 'All in One Pro Plan', exact: true });

describe('plans: buying premium through Stripe Checkout in the browser', () => {
  let stripe: StripeServer;
  let app: TestApp;
  let browser: Browser;
  const email = 'buyer@example.com';

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    stripe = await startStripeServer();
    app = await startWebApp(stripe.appConfig());
    // Checkout's success/cancel URLs are built from PUBLIC_URL at request time; the port is known only now.
    app.deps.config.PUBLIC_URL = app.url;
    stripe.setWebhookUrl(`${app.url}/v1/stripe/webhook`);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await stripe?.close();
  });

  it('a Basic user buys the All in One Pro Plan: busy button, Checkout in a new tab, Pay → premium everywhere', async () => {
    const { context, page } = await openSignedIn(browser, app, { email, path: '/subscribe' });
    const buy = proCard(page).getByRole('button', { name: 'Get Premium' });
    await buy.waitFor();
    expect(await page.getByRole('banner').getByText('Premium', { exact: true }).count()).toBe(0);

    // Hold the subscribe call until the busy state has been seen, so the check does not race the answer.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/trpc/billing.subscribe**', async (route) => {
      await held;
      await route.continue();
    });
    const newTab = context.waitForEvent('page');
    await buy.click();
    await expect.poll(async () => await buy.getAttribute('aria-busy')).toBe('true');
    expect(await buy.isDisabled()).toBe(true);
    expect(await proCard(page).locator('.loading-spinner').count()).toBe(1);
    // Every paid plan button is busy meanwhile.
    expect(await page.getByRole('listitem', { name: 'Premium Summarizer Plan', exact: true }).getByRole('button').isDisabled()).toBe(true);
    release();

    const checkout = await newTab;
    await checkout.waitForURL((url) => url.href.startsWith(`${stripe.url}/checkout/`));
    await checkout.getByRole('heading', { name: 'Test checkout' }).waitFor();
    expect(await checkout.getByText('price_pro: $7.99 per month').count()).toBe(1);
    await expect.poll(async () => await buy.getAttribute('aria-busy')).toBe('false');
    expect(await buy.isEnabled()).toBe(true);
    expect(await page.getByTestId('subscribe-error').count()).toBe(0);
    // The session Stripe was asked for: this user, the Pro price, the app's own return pages.
    const [session] = stripe.sessions.all();
    expect(session).toMatchObject({
      mode: 'subscription',
      success_url: `${app.url}/payment-succeeded?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${app.url}/payment-failed`,
    });

    await checkout.getByRole('button', { name: 'Pay' }).click();
    await checkout.waitForURL((url) => url.pathname === '/payment-succeeded');
    await checkout.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    const [subscription] = [...stripe.subscriptions.values()];
    expect(subscription).toBeDefined();
    const periodEnd = Number((subscription!.items.data[0] as { current_period_end: number }).current_period_end);
    const validUntil = longDate(periodEnd);
    await expect
      .poll(async () => await checkout.getByTestId('premium-status').innerText())
      .toBe(`Your premium features are active until ${validUntil}.`);
    await checkout.getByRole('banner').getByText('Premium', { exact: true }).waitFor();
    await shoot(checkout, 'payment-succeeded-1280');
    // Every webhook Stripe sent was accepted.
    expect(stripe.deliveries.length).toBeGreaterThan(0);
    expect(stripe.deliveries.every((delivery) => delivery.status === 200)).toBe(true);

    await checkout.getByRole('link', { name: 'Go to Your Account' }).click();
    await checkout.waitForURL((url) => url.pathname === '/settings' && url.search === '?tab=account');
    await checkout.getByRole('heading', { name: 'Welcome, Premium User!' }).waitFor();
    expect(await checkout.getByTestId('valid-until').innerText()).toBe(`Valid until ${validUntil}`);
    expect(await checkout.getByText('All in One Pro Plan', { exact: true }).count()).toBe(1);
    await shoot(checkout, 'account-premium-1280');
    await checkout.setViewportSize(VIEWPORTS.phone);
    await shoot(checkout, 'account-premium-390');
    await context.close();
  });

  it('cancel: confirmed in the dialog, "Subscription cancelled" shown, premium stays until the period end', async () => {
    const { context, page } = await openSignedIn(browser, app, { email, path: '/settings?tab=account' });
    await page.getByRole('heading', { name: 'Welcome, Premium User!' }).waitFor();
    const validUntil = await page.getByTestId('valid-until').innerText();

    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel your subscription?' });
    await dialog.waitFor();
    await shoot(page, 'account-cancel-dialog-1280');
    await dialog.getByRole('button', { name: 'Cancel Subscription' }).click();

    await expect.poll(async () => await page.getByRole('status').filter({ hasText: 'Subscription cancelled' }).count()).toBe(1);
    await page.getByTestId('subscription-ending').waitFor();
    expect(await page.getByRole('button', { name: 'Cancel Subscription' }).count()).toBe(0);
    const [subscription] = [...stripe.subscriptions.values()];
    expect(subscription).toMatchObject({ status: 'active', cancel_at_period_end: true });
    await shoot(page, 'account-cancelled-1280');

    // Still premium until the period end, after a reload too.
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome, Premium User!' }).waitFor();
    expect(await page.getByTestId('valid-until').innerText()).toBe(validUntil);
    await page.getByTestId('subscription-ending').waitFor();
    await page.getByRole('banner').getByText('Premium', { exact: true }).waitFor();
    await page.setViewportSize(VIEWPORTS.phone);
    await shoot(page, 'account-cancelled-390');
    await context.close();
  });
});

describe('plans: a server without Stripe', () => {
  const web = webAppAndBrowser();

  beforeAll(() => mkdir(SHOTS, { recursive: true }));

  it('/subscribe says payments are not set up before any click, and no payment tab ever opens', async () => {
    for (const [size, viewport] of [['1280', VIEWPORTS.desktop], ['390', VIEWPORTS.phone]] as const) {
      const { context, page } = await openSignedIn(web.browser, web.app, { email: 'free@example.com', path: '/subscribe', viewport });
      const buy = proCard(page).getByRole('button', { name: 'Get Premium' });
      await buy.waitFor();
      expect(await page.getByTestId('plans-unavailable').innerText()).toBe(`${PAYMENTS_NOT_CONFIGURED}.`);
      expect(await buy.isDisabled()).toBe(true);
      await buy.click({ force: true });
      await page.waitForTimeout(500);
      expect(context.pages().length).toBe(1);
      // The encryption feature keeps its name and says what it is.
      expect(await proCard(page).getByText('Your meeting texts encrypted at rest, on your server').isVisible()).toBe(true);
      await shoot(page, `subscribe-not-configured-${size}`);
      await context.close();
    }
  });

  it('/payment-succeeded tells a Basic user who never paid that there is nothing to confirm', async () => {
    const { context, page } = await openSignedIn(web.browser, web.app, { email: 'never-paid@example.com', path: '/payment-succeeded' });
    await page.getByRole('heading', { name: 'No payment to confirm' }).waitFor();
    expect(await page.getByText('Activating your premium features…').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Choose a plan' }).getAttribute('href')).toBe('/subscribe');
    await context.close();
  });
});
