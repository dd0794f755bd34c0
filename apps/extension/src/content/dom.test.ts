// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptLine } from '@mbox/shared';
import { findCaptionRegion, readCaptionBlocks } from './dom.js';
import {
  captionsButtonSaysOff,
  isInCall,
  isLeaveButtonClick,
  meetCodeFromPath,
  readParticipants,
  readSelfAvatar,
  readSelfName,
  titleFromDocumentTitle,
} from './page.js';
import { CaptionTracker, type SelfIdentity } from './tracker.js';

/** Runs the real fake-Meet fixture (tests/fixtures/meet) in jsdom, so selectors are checked against it. */

const fixtureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../tests/fixtures/meet');
const fixtureHtml = readFileSync(path.join(fixtureDir, 'index.html'), 'utf8');
const fixtureScript = readFileSync(path.join(fixtureDir, 'meet.js'), 'utf8');

interface SayOptions {
  newBlock?: boolean;
  rewrites?: number;
  shrink?: boolean;
  wordsPerStep?: number;
  stepMs?: number;
  avatar?: string;
}
interface FakeMeet {
  say(speaker: string, text: string, options?: SayOptions): Promise<void>;
  replaceRegion(): Promise<void>;
  captionsOff(): Promise<void>;
  captionsOn(): Promise<void>;
  leave(): Promise<void>;
  configure(options: { maxBlocks?: number; cutAt?: number; stepMs?: number }): Promise<void>;
  setParticipants(names: string[]): Promise<void>;
  spoken(): Promise<{ speaker: string; text: string }[]>;
  blocks(): Promise<{ speaker: string; text: string }[]>;
}

function loadFixture(url = '/abc-defg-hij'): FakeMeet {
  history.replaceState({}, '', url);
  document.documentElement.innerHTML = fixtureHtml.replace(/^<!doctype html>/i, '');
  // The page script is a classic script; evaluating it here is what the browser does with <script src>.
  new Function(fixtureScript)();
  return (window as unknown as { __meet: FakeMeet }).__meet;
}

/** Wires a tracker to the region the way the content script does (mutations → snapshot → update). */
function capture(self: Partial<SelfIdentity> = {}) {
  let now = 0;
  const lines = new Map<string, TranscriptLine>();
  const tracker = new CaptionTracker({
    idPrefix: 't',
    now: () => now,
    self: () => ({ name: undefined, pageNames: [], avatar: undefined, others: [], ...self }),
    onLine: (line) => lines.set(line.captionId, line),
  });
  let region: Element | null = null;
  let observer: MutationObserver | null = null;
  const scan = () => {
    now += 10;
    const current = findCaptionRegion(document);
    if (current !== region) {
      observer?.disconnect();
      region = current;
      observer = null;
      if (region) {
        observer = new MutationObserver(scan);
        observer.observe(region, { childList: true, subtree: true, characterData: true });
      }
    }
    if (region) tracker.update(readCaptionBlocks(region));
  };
  scan();
  return {
    tracker,
    scan,
    lines: () => [...lines.values()],
    advance: (ms: number) => {
      now += ms;
      tracker.tick();
    },
    stop: () => observer?.disconnect(),
  };
}

afterEach(() => {
  document.documentElement.innerHTML = '';
});

describe('Meet caption DOM (fixture)', () => {
  it.each(['', '?dom=2024'])('reads speaker, avatar and text from the blocks (%s)', async (query) => {
    const meet = loadFixture(`/abc-defg-hij${query}`);
    await meet.say('Alice Example', 'Good morning everyone', { rewrites: 0 });
    await meet.say('Bob Builder', 'Morning', { rewrites: 0 });
    const region = findCaptionRegion(document);
    expect(region?.getAttribute('role')).toBe('region');
    const blocks = readCaptionBlocks(region as Element).map(({ speaker, text, avatar }) => ({ speaker, text, avatar }));
    expect(blocks).toEqual([
      { speaker: 'Alice Example', text: 'Good morning everyone', avatar: 'https://lh3.googleusercontent.com/a/default-user=s64-c' },
      { speaker: 'Bob Builder', text: 'Morning', avatar: 'https://lh3.googleusercontent.com/a/default-user=s64-c' },
    ]);
  });

  it('falls back to structure when block classes are renamed, ignoring the two trailing children', async () => {
    const meet = loadFixture();
    await meet.say('Alice Example', 'Renamed classes still work', { rewrites: 0 });
    for (const block of Array.from(document.querySelectorAll('.nMcdL'))) block.className = 'zzz';
    const blocks = readCaptionBlocks(findCaptionRegion(document) as Element);
    expect(blocks.map((b) => [b.speaker, b.text])).toEqual([['Alice Example', 'Renamed classes still work']]);
  });

  it('reads meeting facts: code, title, call state, captions state, participants, self name', async () => {
    const meet = loadFixture();
    expect(meetCodeFromPath(location.pathname)).toBe('abc-defg-hij');
    expect(meetCodeFromPath('/landing')).toBeNull();
    expect(titleFromDocumentTitle(document.title, 'abc-defg-hij')).toBe('Weekly product sync');
    expect(titleFromDocumentTitle('Meet - abc-defg-hij', 'abc-defg-hij')).toBeUndefined();
    expect(isInCall(document)).toBe(true);
    expect(captionsButtonSaysOff(document)).toBe(false);
    expect(readParticipants(document)).toEqual(['Alice Example', 'Bob Builder', 'Carol Jones']);
    expect(readSelfName(document)).toBe('Alice Example');
    expect(isLeaveButtonClick(document.querySelector('button[aria-label="Leave call"] i'))).toBe(true);
    expect(isLeaveButtonClick(document.querySelector('button[aria-label="Chat"]'))).toBe(false);

    await meet.captionsOff();
    expect(findCaptionRegion(document)).toBeNull();
    expect(captionsButtonSaysOff(document)).toBe(true);
    await meet.leave();
    expect(isInCall(document)).toBe(false);
  });
});

describe('capturing the fixture with CaptionTracker', () => {
  it('captures a conversation with in-place rewrites and shrinks exactly once per turn', async () => {
    const meet = loadFixture();
    const cap = capture({ name: 'Alice Example' });
    await meet.say('Alice Example', 'Let us start with the quarterly numbers and then move on to hiring', { rewrites: 2, shrink: true, stepMs: 1 });
    await meet.say('Bob Builder', 'Sounds good to me, I have the slides ready', { rewrites: 1, stepMs: 1 });
    await meet.say('You', 'Great, go ahead', { stepMs: 1 });
    cap.advance(7000);
    cap.stop();

    const spoken = await meet.spoken();
    const lines = cap.lines();
    expect(lines.map((l) => [l.speaker, l.text, l.final])).toEqual([
      ['Alice Example', spoken[0]?.text, true],
      ['Bob Builder', spoken[1]?.text, true],
      ['Alice Example', spoken[2]?.text, true],
    ]);
    expect(lines.every((l) => l.revision > 1)).toBe(true);
  });

  it('keeps one line per block when the region is replaced, and finalizes blocks Meet drops', async () => {
    const meet = loadFixture();
    await meet.configure({ maxBlocks: 2 });
    const cap = capture();
    await meet.say('Alice Example', 'The first point is about the budget for next year', { stepMs: 1 });
    await meet.say('Bob Builder', 'I agree with the budget proposal as it stands today', { stepMs: 1 });
    await meet.replaceRegion();
    cap.scan();
    await meet.say('Bob Builder', 'and one more thing', { stepMs: 1 });
    await meet.say('Carol Jones', 'Noted', { stepMs: 1 });
    cap.advance(400);
    cap.stop();

    const lines = cap.lines();
    expect(lines.map((l) => [l.speaker, l.text])).toEqual([
      ['Alice Example', 'The first point is about the budget for next year'],
      ['Bob Builder', 'I agree with the budget proposal as it stands today and one more thing'],
      ['Carol Jones', 'Noted'],
    ]);
    expect(lines[0]?.final).toBe(true);
    expect(lines[1]?.final).toBe(true);
  });

  it('stores own captions of a German Meet UI under the account name, with the page as the only other source', async () => {
    const meet = loadFixture();
    await meet.setParticipants(['Alice Example', 'Bob Builder']);
    // The own tile shows the user's photo, which is also the avatar of their captions.
    const photo = 'https://lh3.googleusercontent.com/a/ACg8ocAlice';
    document.querySelector('[data-self-name]')?.append(Object.assign(document.createElement('img'), { src: `${photo}=s48-c` }));
    const pageName = readSelfName(document);
    const cap = capture({
      name: 'Alice from Mbox',
      pageNames: pageName ? [pageName] : [],
      avatar: readSelfAvatar(document),
      others: readParticipants(document).filter((n) => n !== pageName),
    });
    await meet.say('Bob Builder', 'Hören Sie mich gut?', { stepMs: 1, rewrites: 0 });
    await meet.say('Sie', 'Ja, sehr gut', { stepMs: 1, rewrites: 0 });
    await meet.say('Bob Builder', 'Prima', { stepMs: 1, rewrites: 0 });
    await meet.say('Ich selbst', 'Ein Label, das keine Tabelle kennt', { stepMs: 1, rewrites: 0, avatar: `${photo}=s64-c` });
    cap.advance(7000);
    cap.stop();

    expect(cap.lines().map((l) => [l.speaker, l.text])).toEqual([
      ['Bob Builder', 'Hören Sie mich gut?'],
      ['Alice from Mbox', 'Ja, sehr gut'],
      ['Bob Builder', 'Prima'],
      ['Alice from Mbox', 'Ein Label, das keine Tabelle kennt'],
    ]);
    expect(readParticipants(document, 'Alice from Mbox')).toEqual(['Alice from Mbox', 'Bob Builder']);
  });

  it('stores a short line said twice by the same speaker twice, in spoken order', async () => {
    const meet = loadFixture();
    await meet.configure({ maxBlocks: 2 });
    const cap = capture();
    await meet.say('Alice Example', 'Mm-hmm.', { stepMs: 1, rewrites: 0 });
    await meet.say('Bob Builder', 'So we keep the budget as it is', { stepMs: 1, rewrites: 0 });
    await meet.say('Alice Example', 'Mm-hmm.', { stepMs: 1, rewrites: 0 });
    await meet.say('Bob Builder', 'And?', { stepMs: 1, rewrites: 0 });
    await meet.say('Alice Example', 'And?', { stepMs: 1, rewrites: 0 });
    cap.advance(7000);
    cap.stop();

    const lines = cap.lines().sort((x, y) => x.spokenAt - y.spokenAt);
    expect(lines.map((l) => [l.speaker, l.text])).toEqual((await meet.spoken()).map((s) => [s.speaker, s.text]));
    expect(lines).toHaveLength(5);
  });

  it('splits a long monologue Meet cuts, without repeating or losing words', async () => {
    const meet = loadFixture();
    await meet.configure({ cutAt: 300 });
    const cap = capture();
    const sentences = Array.from({ length: 12 }, (_, i) => `This is sentence number ${i + 1} of a long monologue.`);
    await meet.say('Alice Example', sentences.join(' '), { stepMs: 1, wordsPerStep: 3, rewrites: 0 });
    cap.advance(7000);
    cap.stop();

    const lines = cap.lines();
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.map((l) => l.text).join(' ')).toBe(sentences.join(' '));
  });
});
