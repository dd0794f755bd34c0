import type { BrowserContext, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestLinesInput } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../apps/server/src/test/app.js';
import { readQmsumTurns } from '../fixtures/meet/replay.js';
import { launchWithExtension, signInThroughWebApp, webDist, type ExtensionBrowser } from './support/browser.js';

const TURNS = 40;

/** What the fixture page exposes (tests/fixtures/meet/meet.js). */
interface FakeMeet {
  say(speaker: string, text: string, options?: { newBlock?: boolean; rewrites?: number; stepMs?: number }): Promise<void>;
  idle(): Promise<void>;
  configure(options: { cutAt?: number }): Promise<void>;
}
declare global {
  interface Window {
    __meet: FakeMeet;
  }
}
interface WorkerDebug {
  mboxDebug: { flush(): Promise<unknown>; state(): Promise<{ account: { user: { email: string } } | null; pendingLines: number }> };
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('a caption line travels from a Meet page to the web app', () => {
  let app: TestApp;
  let context: BrowserContext;
  let worker: Worker;
  let browser: ExtensionBrowser;
  /** Every batch the extension posted, as the server received it. */
  const batches: { token: string; body: IngestLinesInput }[] = [];

  beforeAll(async () => {
    app = await startTestApp({}, { webDist });
    browser = await launchWithExtension();
    ({ context, worker } = browser);
    await context.route(`${app.url}/v1/transcript/lines`, async (route) => {
      const request = route.request();
      const token = (request.headers().authorization ?? '').replace(/^Bearer /, '');
      batches.push({ token, body: request.postDataJSON() as IngestLinesInput });
      await route.continue();
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('signs in, hands the extension its token, captures 40 turns and shows them live', async () => {
    const web = await signInThroughWebApp(context, app.url);

    // The handshake gave the extension this user and an extension token issued for it.
    await expect
      .poll(async () => (await worker.evaluate(() => (globalThis as unknown as WorkerDebug).mboxDebug.state())).account?.user.email, {
        timeout: 15_000,
      })
      .toBe('me@localhost');
    expect(await app.deps.db.extensionToken.count({ where: { revokedAt: null } })).toBe(1);

    const turns = await readQmsumTurns('ES2004a', TURNS);
    expect(turns).toHaveLength(TURNS);

    const meet = await context.newPage();
    await meet.goto('https://meet.google.com/abc-defg-hij');
    await meet.waitForFunction(() => Boolean(window.__meet));
    // Meet also cuts monologues beyond ~900 characters into a continuation line (covered by the
    // extension's DOM tests); here each spoken turn must stay one line, so the cut is moved out of reach.
    await meet.evaluate(() => window.__meet.configure({ cutAt: 100_000 }));
    // The first turn creates the meeting; the web app's list shows it live, and we open it.
    const [first, ...rest] = turns;
    await meet.evaluate(([s, t]) => window.__meet.say(s, t, { newBlock: true, rewrites: 2 }), [first!.speaker, first!.text] as const);
    await worker.evaluate(() => (globalThis as unknown as WorkerDebug).mboxDebug.flush());
    const item = web.getByTestId('meeting-item').first();
    await item.waitFor({ timeout: 20_000 });
    await item.click();
    await web.getByTestId('transcript-message').first().waitFor({ timeout: 20_000 });

    // The rest arrive while the transcript is open, with Meet's in-place rewrites of the last block.
    for (const turn of rest) {
      await meet.evaluate(([s, t]) => window.__meet.say(s, t, { newBlock: true, rewrites: 2 }), [turn.speaker, turn.text] as const);
    }
    await meet.evaluate(() => window.__meet.idle());
    await worker.evaluate(() => (globalThis as unknown as WorkerDebug).mboxDebug.flush());

    const messages = web.getByTestId('transcript-message');
    await expect.poll(() => messages.count(), { timeout: 30_000 }).toBe(TURNS);
    // Meet keeps refining the last block for a moment: wait until every text has settled.
    const expected = turns.map((t) => [t.speaker, normalise(t.text)]);
    await expect
      .poll(
        async () =>
          messages.evaluateAll((nodes) =>
            nodes.map((n) => [
              n.getAttribute('data-speaker') ?? '',
              (n.querySelector('[data-testid="message-text"]')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
            ]),
          ),
        { timeout: 30_000 },
      )
      .toEqual(expected);

    // The server stored exactly those lines, nothing more.
    const meetings = await app.deps.db.meeting.findMany({ include: { messages: { orderBy: { spokenAt: 'asc' } } } });
    expect(meetings).toHaveLength(1);
    expect(meetings[0]!.messages.map((m) => [m.user, normalise(m.text)])).toEqual(expected);
    await meet.close();
  });

  it('replaying the same turns again adds no line', async () => {
    expect(batches.length).toBeGreaterThan(0);
    const before = await app.deps.db.message.count();
    for (const { token, body } of batches) {
      const response = await app.rest<{ accepted: number }>('POST', '/v1/transcript/lines', { token, body });
      expect(response.status).toBe(200);
      expect(response.body.accepted).toBe(0);
    }
    expect(await app.deps.db.message.count()).toBe(before);
    expect(before).toBe(TURNS);
  });
});
