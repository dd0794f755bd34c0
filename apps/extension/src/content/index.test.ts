// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptLine } from '@mbox/shared';

/** The content script itself, on the fake Meet page in jsdom, with the extension APIs stubbed. */

const fixtureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../tests/fixtures/meet');
const fixtureHtml = readFileSync(path.join(fixtureDir, 'index.html'), 'utf8');
const fixtureScript = readFileSync(path.join(fixtureDir, 'meet.js'), 'utf8');

interface SentMessage {
  type: string;
  lines?: TranscriptLine[];
}

/** Any chrome.* API the script touches answers with an empty result; sendMessage is recorded. */
function stubChrome(sent: SentMessage[]): unknown {
  const api = (): unknown =>
    new Proxy(() => Promise.resolve({}), {
      get: (_target, key) => (key === 'then' ? undefined : api()),
    });
  return new Proxy(
    {},
    {
      get: (_target, key) =>
        key === 'runtime'
          ? new Proxy(
              {},
              {
                get: (_t, runtimeKey) =>
                  runtimeKey === 'sendMessage'
                    ? (message: SentMessage) => {
                        sent.push(message);
                        return Promise.resolve({ ok: true });
                      }
                    : api(),
              },
            )
          : api(),
    },
  );
}

function captionText(): Text {
  const blocks = document.querySelectorAll('[jsname="tgaKEf"]');
  const node = blocks[blocks.length - 1]?.firstChild;
  if (!(node instanceof Text)) throw new Error('no caption text');
  return node;
}

const flushMicrotasks = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe('content script', () => {
  const sent: SentMessage[] = [];

  beforeEach(async () => {
    sent.length = 0;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.stubGlobal('chrome', stubChrome(sent));
    history.replaceState({}, '', '/abc-defg-hij');
    document.documentElement.innerHTML = fixtureHtml.replace(/^<!doctype html>/i, '');
    new Function(fixtureScript)();
    vi.resetModules();
    await import('./index.js');
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    document.documentElement.innerHTML = '';
    delete (window as unknown as Record<string, unknown>)['__mboxCapture'];
  });

  const sentLines = () => sent.flatMap((m) => (m.type === 'capture-lines' ? (m.lines ?? []) : []));

  it('sends the words Meet showed inside the debounce window when the page goes away', async () => {
    const meet = (window as unknown as { __meet: { say(s: string, t: string, o: object): Promise<void> } }).__meet;
    const said = meet.say('Bob Builder', 'See you', { stepMs: 0, rewrites: 0 });
    await vi.advanceTimersByTimeAsync(1000);
    await said;
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentLines().at(-1)).toMatchObject({ speaker: 'Bob Builder', text: 'See you', final: false });

    // The last words arrive, and the tab closes before the debounced scan runs.
    captionText().data = 'See you tomorrow then';
    await flushMicrotasks();
    window.dispatchEvent(new Event('pagehide'));

    expect(sentLines().at(-1)).toMatchObject({ speaker: 'Bob Builder', text: 'See you tomorrow then', final: true });
  });

  it('reads the region Meet put in place since the last poll when the page goes away', async () => {
    const meet = (window as unknown as { __meet: { say(s: string, t: string, o: object): Promise<void>; replaceRegion(): Promise<void> } }).__meet;
    const said = meet.say('Bob Builder', 'See you', { stepMs: 0, rewrites: 0 });
    await vi.advanceTimersByTimeAsync(1000);
    await said;
    await vi.advanceTimersByTimeAsync(1000);

    // Meet swaps the region node, the turn goes on in the new node, and the tab closes before the next poll.
    const replaced = meet.replaceRegion();
    await vi.advanceTimersByTimeAsync(0);
    await replaced;
    captionText().data = 'See you tomorrow then';
    await flushMicrotasks();
    window.dispatchEvent(new Event('pagehide'));

    const lines = sentLines();
    expect(lines.at(-1)).toMatchObject({ speaker: 'Bob Builder', text: 'See you tomorrow then', final: true });
    // One line, continued in the new node: not a second copy of its start.
    expect(new Set(lines.map((l) => l.captionId)).size).toBe(1);
  });

  it('keeps the words Meet showed inside the debounce window when captions go off before the next scan', async () => {
    const meet = (window as unknown as { __meet: { say(s: string, t: string, o: object): Promise<void>; captionsOff(): Promise<void>; captionsOn(): Promise<void> } }).__meet;
    const said = meet.say('Bob Builder', 'I at my side prefer a', { stepMs: 0, rewrites: 0 });
    await vi.advanceTimersByTimeAsync(1000);
    await said;
    // Just before the next poll (one runs every second since the script started).
    await vi.advanceTimersByTimeAsync(980);
    expect(sentLines().at(-1)).toMatchObject({ text: 'I at my side prefer a', final: false });

    // The last word arrives and Meet removes the region before the debounced scan runs; the poll comes first.
    captionText().data = 'I at my side prefer a wireless.';
    await flushMicrotasks();
    const off = meet.captionsOff();
    await vi.advanceTimersByTimeAsync(0);
    await off;
    await vi.advanceTimersByTimeAsync(1500);
    const on = meet.captionsOn();
    await vi.advanceTimersByTimeAsync(0);
    await on;
    await vi.advanceTimersByTimeAsync(3000);

    const lines = sentLines();
    expect(lines.at(-1)).toMatchObject({ speaker: 'Bob Builder', text: 'I at my side prefer a wireless.', final: true });
    expect(new Set(lines.map((l) => l.captionId)).size).toBe(1);
  });
});
