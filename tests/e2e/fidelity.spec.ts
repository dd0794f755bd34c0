import type { BrowserContext, Page, Route, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../apps/server/src/test/app.js';
import { readQmsumTurns, type ReplayTurn } from '../fixtures/meet/replay.js';
import type { MeetWindow, SayOptions } from '../fixtures/meet/fake-meet.js';
import { launchWithExtension, signInThroughWebApp, webDist, type ExtensionBrowser } from './support/browser.js';

/**
 * Capture fidelity: slices of real meetings (QMSum) replayed as live captions through
 * the fake Meet page in each DOM and behaviour variant Meet is known for, with the built extension in
 * Chromium. Every spoken turn must be stored at the server exactly once, under the right speaker, with
 * its exact text, in spoken order — including repeated short turns ("Mm-hmm.") and the user's own
 * turns, which Meet labels with the UI's self word ("You", "Sie") and which must be stored under the
 * user's real name.
 */

/** Turns per behaviour: enough for several speaker changes and repeats, small enough for CI. */
const TURNS = 40;
/** The default local account (the web app's local-mode login button with no e-mail); the handshake hands it to the extension. */
const USER_EMAIL = 'me@localhost';
const USER_NAME = 'Local user';
/** The QMSum speaker played by the signed-in user: their turns show Meet's self label. */
const SELF_SPEAKER = 'Project Manager';
/**
 * People need a moment even for "Mm-hmm."; the fixture would otherwise show four turns within the
 * content script's one-second poll that re-finds a replaced caption region.
 */
const MIN_TURN_MS = 300;

interface WorkerState {
  account: { user: { email: string; name: string } } | null;
  pendingLines: number;
}
interface WorkerDebug {
  mboxDebug: { flush(): Promise<WorkerState>; state(): Promise<WorkerState> };
}

/** One replay: which page variant, which slice of which meeting, and what happens around the turns. */
interface Behaviour {
  name: string;
  meetCode: string;
  query: string;
  meeting: string;
  start: number;
  /** Extra say() options for turn `index`. */
  sayOptions?: (index: number, turn: ReplayTurn) => SayOptions;
  /** Runs before turn `index` is spoken. */
  before?: (index: number, ctx: { meet: Page }) => Promise<void>;
}

const debug = (worker: Worker) => worker.evaluate(() => (globalThis as unknown as WorkerDebug).mboxDebug.state());
const flush = (worker: Worker) => worker.evaluate(() => (globalThis as unknown as WorkerDebug).mboxDebug.flush());

/** (speaker, text) pairs said more than once in the slice: the repeats a tracker may merge. */
function repeatedTurns(turns: ReplayTurn[]): string[] {
  const counts = new Map<string, number>();
  for (const t of turns) counts.set(`${t.speaker}: ${t.text}`, (counts.get(`${t.speaker}: ${t.text}`) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > 1).map(([key]) => key);
}

const expectedRows = (turns: ReplayTurn[]) => turns.map((t) => [t.speaker === SELF_SPEAKER ? USER_NAME : t.speaker, t.text]);

describe('capture fidelity: QMSum meetings replayed through Meet variants are stored exactly', () => {
  let app: TestApp;
  let context: BrowserContext;
  let worker: Worker;
  let browser: ExtensionBrowser;

  beforeAll(async () => {
    app = await startTestApp({}, { webDist });
    browser = await launchWithExtension();
    ({ context, worker } = browser);

    // Sign in through the web app: the handshake hands the extension the user and a token.
    const web = await signInThroughWebApp(context, app.url);
    // (expect.poll is for tests only: this waits by hand.)
    const deadline = Date.now() + 15_000;
    let account = (await debug(worker)).account;
    while (account?.user.email !== USER_EMAIL && Date.now() < deadline) {
      await web.waitForTimeout(250);
      account = (await debug(worker)).account;
    }
    if (account?.user.email !== USER_EMAIL || account.user.name !== USER_NAME) {
      throw new Error(`the extension did not receive ${USER_EMAIL} (${USER_NAME}) from the handshake: ${JSON.stringify(account)}`);
    }
    await web.close();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** Opens the fake Meet call of `behaviour` with the slice's speakers as participants, the user first. */
  async function joinCall(behaviour: Behaviour, turns: ReplayTurn[]): Promise<Page> {
    const meet = await context.newPage();
    if (process.env.E2E_DEBUG) meet.on('console', (m) => console.log(`meet ${behaviour.meetCode}:`, m.text()));
    await meet.goto(`https://meet.google.com/${behaviour.meetCode}${behaviour.query}`);
    await meet.waitForFunction(() => Boolean((window as unknown as Partial<MeetWindow>).__meet));
    const others = [...new Set(turns.map((t) => t.speaker))].filter((s) => s !== SELF_SPEAKER);
    await meet.evaluate((names) => (window as unknown as MeetWindow).__meet.setParticipants(names), [USER_NAME, ...others]);
    // Each spoken turn must stay one line: Meet's long-monologue cut (covered by the tracker's tests) is moved out of reach.
    await meet.evaluate(() => (window as unknown as MeetWindow).__meet.configure({ cutAt: 100_000, stepMs: 25 }));
    return meet;
  }

  async function loadSlice(behaviour: Behaviour): Promise<ReplayTurn[]> {
    const turns = await readQmsumTurns(behaviour.meeting, TURNS, behaviour.start);
    expect(turns).toHaveLength(TURNS);
    // The slice must exercise the hard cases: the user's own turns and short turns said twice by one speaker.
    expect(turns.some((t) => t.speaker === SELF_SPEAKER)).toBe(true);
    expect(repeatedTurns(turns).length).toBeGreaterThan(0);
    return turns;
  }

  async function speak(meet: Page, behaviour: Behaviour, turns: ReplayTurn[], last = turns.length): Promise<void> {
    for (const [index, turn] of turns.slice(0, last).entries()) {
      await behaviour.before?.(index, { meet });
      const options: SayOptions = {
        newBlock: true,
        self: turn.speaker === SELF_SPEAKER,
        rewrites: 1,
        minMs: MIN_TURN_MS,
        ...behaviour.sayOptions?.(index, turn),
      };
      await meet.evaluate(([s, t, o]) => (window as unknown as MeetWindow).__meet.say(s, t, o), [turn.speaker, turn.text, options] as const);
    }
    await meet.evaluate(() => (window as unknown as MeetWindow).__meet.idle());
  }

  /** Leaves the call with Meet's leave button (found by its icon, the same in every UI language). */
  async function leave(meet: Page): Promise<void> {
    await meet.locator('button', { has: meet.locator('i', { hasText: /^call_end$/ }) }).click();
    await flush(worker);
  }

  async function storedMeeting(meetCode: string) {
    return app.deps.db.meeting.findFirst({
      where: { meetCode },
      include: { messages: { orderBy: [{ spokenAt: 'asc' }, { captionId: 'asc' }] } },
    });
  }

  /** Waits until the server holds exactly `expected` for the call, then checks what goes with it. */
  async function expectStored(meetCode: string, expected: string[][], selfLabel: string): Promise<void> {
    await expect
      .poll(
        async () => {
          await flush(worker);
          return (await storedMeeting(meetCode))?.messages.map((m) => [m.user, m.text]) ?? null;
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toEqual(expected);
    const meeting = await storedMeeting(meetCode);
    expect(await app.deps.db.meeting.count({ where: { meetCode } })).toBe(1);
    expect(meeting!.messages.every((m) => m.final)).toBe(true);
    expect(new Set(meeting!.messages.map((m) => m.captionId)).size).toBe(expected.length);
    // The self label is a word of the UI, never a person.
    expect(meeting!.users).toContain(USER_NAME);
    expect(meeting!.users).not.toContain(selfLabel);
    await expect.poll(async () => (await storedMeeting(meetCode))?.finishedAt ?? null, { timeout: 15_000 }).not.toBeNull();
  }

  /** The replay every behaviour shares: join, speak the slice, leave, and compare at the server. */
  async function replayAndCheck(behaviour: Behaviour): Promise<void> {
    const turns = await loadSlice(behaviour);
    const meet = await joinCall(behaviour, turns);
    const selfLabel = await meet.evaluate(() => (window as unknown as MeetWindow).__meet.selfLabel());
    await speak(meet, behaviour, turns);
    await leave(meet);
    await expectStored(behaviour.meetCode, expectedRows(turns), selfLabel);
    await meet.close();
  }

  it('2024 class names (.TBMuR.bj4p3b, name in .KcIKyf.jxFHg, text in .bh44bd.VbkSUe)', async () => {
    await replayAndCheck({ name: '2024', meetCode: 'fid-aaaa-two', query: '?dom=2024', meeting: 'ES2004a', start: 140 });
  });

  it('2025 class names (.nMcdL.bj4p3b, name in .KcIKyf > span.NWpY1d, text in .ygicle.VbkSUe)', async () => {
    await replayAndCheck({ name: '2025', meetCode: 'fid-bbbb-two', query: '?dom=2025', meeting: 'IS1003b', start: 0 });
  });

  it('unknown obfuscated class names (only structure, roles, jsname and secondary classes kept)', async () => {
    await replayAndCheck({ name: 'obfuscated', meetCode: 'fid-cccc-obf', query: '?dom=obfuscated', meeting: 'IS1003b', start: 80 });
  });

  it('recognition rewrites that shrink and grow the line in place', async () => {
    await replayAndCheck({
      name: 'rewrites',
      meetCode: 'fid-dddd-rew',
      query: '',
      meeting: 'ES2004a',
      start: 160,
      sayOptions: () => ({ rewrites: 3, shrink: true, grow: true }),
    });
  });

  it('the caption region replaced (between and within turns) and captions toggled off and on', async () => {
    await replayAndCheck({
      name: 'region',
      meetCode: 'fid-eeee-reg',
      query: '',
      meeting: 'IS1003b',
      start: 100,
      // Mid-turn replacements on turns long enough that the half shown before is a recognisable prefix.
      sayOptions: (index, turn) => ({ replaceRegionMidway: index % 3 === 0 && turn.text.split(' ').length >= 10 }),
      before: async (index, { meet }) => {
        if (index > 0 && index % 5 === 0) await meet.evaluate(() => (window as unknown as MeetWindow).__meet.replaceRegion());
        if (index === 14 || index === 29) {
          await meet.evaluate(() => (window as unknown as MeetWindow).__meet.captionsOff());
          await meet.waitForTimeout(1500);
          await meet.evaluate(() => (window as unknown as MeetWindow).__meet.captionsOn());
          // Nobody speaks into the first second of re-enabled captions faster than the content script polls.
          await meet.waitForTimeout(1200);
        }
      },
    });
  });

  it('a German UI: self label "Sie", translated aria-labels and screen texts', async () => {
    await replayAndCheck({ name: 'german', meetCode: 'fid-ffff-deu', query: '?lang=de', meeting: 'IS1003b', start: 340 });
  });

  it('the tab closed mid-sentence keeps every word shown before the close', async () => {
    const behaviour: Behaviour = { name: 'close', meetCode: 'fid-gggg-cls', query: '', meeting: 'ES2004a', start: 180 };
    const turns = await loadSlice(behaviour);
    const meet = await joinCall(behaviour, turns);
    const selfLabel = await meet.evaluate(() => (window as unknown as MeetWindow).__meet.selfLabel());
    // The last turn is long enough to be cut off: find one near the end of the slice.
    const cutIndex = turns.findLastIndex((t) => t.text.split(' ').length >= 8);
    expect(cutIndex).toBeGreaterThan(TURNS / 2);
    await speak(meet, behaviour, turns, cutIndex);
    const cut = turns[cutIndex]!;
    const shownWords = Math.ceil(cut.text.split(' ').length / 2);
    // The speaker is mid-sentence; the tab closes as soon as the last words are on screen, inside the
    // content script's scan debounce.
    await meet.evaluate(
      ([s, t, o]) => (window as unknown as MeetWindow).__meet.say(s, t, o),
      [cut.speaker, cut.text, { newBlock: true, self: cut.speaker === SELF_SPEAKER, rewrites: 0, stopAfterWords: shownWords }] as const,
    );
    await meet.close();
    const spoken = [...turns.slice(0, cutIndex), { speaker: cut.speaker, text: cut.text.split(' ').slice(0, shownWords).join(' ') }];
    await expectStored(behaviour.meetCode, expectedRows(spoken), selfLabel);
  });

  it('a network outage: the server unreachable for most of the meeting, every line arrives after', async () => {
    const linesUrl = `${app.url}/v1/transcript/lines`;
    const unreachable = (route: Route) => route.abort('internetdisconnected');
    const outage = { from: 5, to: 30 };
    let pendingDuringOutage = 0;
    try {
      await replayAndCheck({
        name: 'outage',
        meetCode: 'fid-hhhh-net',
        query: '',
        meeting: 'IS1003b',
        start: 180,
        before: async (index) => {
          if (index === outage.from) await context.route(linesUrl, unreachable);
          if (index === outage.to) {
            pendingDuringOutage = (await flush(worker)).pendingLines;
            await context.unroute(linesUrl, unreachable);
          }
        },
      });
    } finally {
      await context.unroute(linesUrl, unreachable);
    }
    // The outage was real: lines waited in the extension's outbox while the server was unreachable.
    expect(pendingDuringOutage).toBeGreaterThan(0);
  });
});
