import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { LOGIN_LOCAL } from '@mbox/shared/ui-messages';
import { installFakeMeet } from '../../fixtures/meet/serve.js';
import { repoRoot } from '../../../apps/server/src/db/paths.js';
import { startTestApp, type TestApp } from '../../../apps/server/src/test/app.js';
import type { Config } from '../../../apps/server/src/config.js';

/** The built web app the test server serves; E2E_WEB_DIST lets parallel work build elsewhere. */
export const webDist = process.env.E2E_WEB_DIST ?? path.join(repoRoot, 'apps/web/dist');

/** Flags that keep Debian's Chromium quiet and offline (CONTRIBUTING.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The built extension; E2E_EXTENSION_DIST runs a spec against another build (e.g. an older commit's). */
export const extensionDir = process.env.E2E_EXTENSION_DIST ?? path.join(repoRoot, 'apps/extension/dist');

/** Fixed by the manifest key (apps/extension/README.md). */
export const EXTENSION_ID = 'gdpebbbflogohfolilalmebjdpkopjfp';

/**
 * Sets the extension's server in its popup, as a user does for any origin but the default
 * http://localhost:3000: the extension accepts the sign-in handshake from that origin only.
 */
export async function setExtensionServer(context: BrowserContext, origin: string): Promise<void> {
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${EXTENSION_ID}/popup.html`);
  await popup.getByTestId('server-origin').fill(origin);
  await popup.getByRole('button', { name: 'Save' }).click();
  await popup.getByText(`Saved. Open ${origin} and sign in to connect.`).waitFor();
  await popup.close();
}

export interface ExtensionBrowser {
  context: BrowserContext;
  /** The extension's service worker. */
  worker: Worker;
  close(): Promise<void>;
}

/**
 * Chromium with the built extension loaded (a persistent profile, as MV3 needs) and the fake Meet page
 * served at https://meet.google.com/, so the manifest's content scripts inject as in production.
 */
export async function launchWithExtension(): Promise<ExtensionBrowser> {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'mbox-e2e-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  await installFakeMeet(context);
  return {
    context,
    worker,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Signs a new local account in through the login screen and skips onboarding; ends on '/'. With the
 * extension loaded, its server is set to `appUrl` first, so the handshake of that sign-in connects it.
 */
export async function signInThroughWebApp(context: BrowserContext, appUrl: string): Promise<Page> {
  if (context.serviceWorkers().some((worker) => worker.url().startsWith(`chrome-extension://${EXTENSION_ID}/`))) {
    await setExtensionServer(context, appUrl);
  }
  const web = await context.newPage();
  if (process.env.E2E_DEBUG) web.on('console', (m) => console.log('web:', m.text()));
  await web.goto(`${appUrl}/login`);
  await web.getByRole('button', { name: LOGIN_LOCAL }).click();
  // A new account is sent to onboarding first; skipping it completes onboarding and lands on /.
  await web.getByRole('button', { name: 'Skip onboarding' }).click({ timeout: 20_000 });
  await web.waitForURL((url) => url.pathname === '/');
  return web;
}

/** Desktop and phone sizes the screens are checked at (1280, 1024 and 390 px). */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  laptop: { width: 1024, height: 768 },
  phone: { width: 390, height: 844 },
} as const;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
}

/**
 * The real server serving the built web app, on a fresh embedded PGlite database: what `npm start`
 * runs on out of the box (capture.spec.ts covers the same screens on PostgreSQL).
 */
export function startWebApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  return startTestApp(overrides, { webDist, embeddedDatabase: true });
}

export interface SignedIn {
  context: BrowserContext;
  page: Page;
  token: string;
}

/**
 * A browser context signed in as `email`, already onboarded, on `path`. The context signs in the way
 * the web app does (the tRPC sign-in call, whose answer sets the httpOnly session cookies in the
 * context's cookie jar), so each test starts where a returning user is (the login screen itself is
 * driven by capture.spec.ts). `token` is a separate API session's bearer token for the test's own calls.
 */
export async function openSignedIn(
  browser: Browser,
  app: TestApp,
  options: { email?: string; path?: string; viewport?: { width: number; height: number } } = {},
): Promise<SignedIn> {
  const email = options.email ?? 'me@example.com';
  const token = await app.signIn(email);
  await app.rest('PUT', '/v1/user-settings/onboarding-complete', { token, body: {} });

  const context = await browser.newContext({ viewport: options.viewport ?? VIEWPORTS.desktop });
  // context.request shares the context's cookies: the Set-Cookie of this answer signs the pages in.
  const signIn = await context.request.post(`${app.url}/trpc/auth.signIn?batch=1`, { data: { 0: { email } } });
  if (!signIn.ok()) throw new Error(`web sign-in failed: ${signIn.status()} ${await signIn.text()}`);
  const page = await context.newPage();
  if (process.env.E2E_DEBUG) page.on('console', (m) => console.log('web:', m.text()));
  await page.goto(`${app.url}${options.path ?? '/'}`);
  return { context, page, token };
}

/**
 * The web app on a real server and a Chromium, started before the suite's tests and closed after them.
 * The handle is filled in by the suite's beforeAll: read `web.app` and `web.browser` inside tests.
 */
export function webAppAndBrowser(overrides: Partial<Config> = {}): { app: TestApp; browser: Browser } {
  const web = {} as { app: TestApp; browser: Browser };
  beforeAll(async () => {
    web.app = await startWebApp(overrides);
    web.browser = await launchBrowser();
  });
  afterAll(async () => {
    await web.browser?.close();
    await web.app?.close();
  });
  return web;
}
