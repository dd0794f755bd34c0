import { describe, expect, it } from 'vitest';
import type { TranscriptLine } from '@mbox/shared';
import type { CaptionBlockSnapshot } from './dom.js';
import { CaptionTracker, avatarKey, overlapPrefix, type SelfIdentity } from './tracker.js';

function setup(options: { self?: Partial<SelfIdentity> } = {}) {
  const self: SelfIdentity = { name: undefined, pageNames: [], avatar: undefined, others: [], ...options.self };
  let now = 1_000_000;
  const events: TranscriptLine[] = [];
  const tracker = new CaptionTracker({
    idPrefix: 'p',
    now: () => now,
    self: () => self,
    onLine: (line) => events.push(line),
  });
  const latest = () => {
    const byId = new Map<string, TranscriptLine>();
    for (const e of events) byId.set(e.captionId, e);
    return [...byId.values()];
  };
  return {
    tracker,
    events,
    latest,
    advance: (ms: number) => {
      now += ms;
    },
    get now() {
      return now;
    },
  };
}

const block = (key: object, speaker: string, text: string, avatar?: string): CaptionBlockSnapshot =>
  avatar ? { key, speaker, text, avatar } : { key, speaker, text };

describe('CaptionTracker', () => {
  it('gives a block a stable id and a growing revision while Meet rewrites it in place', () => {
    const t = setup();
    const a = {};
    t.tracker.update([block(a, 'Alice', '')]);
    expect(t.events).toHaveLength(0);
    for (const text of ['Hello', 'Hello every', 'Hello everyone', 'Hello everyone, welcome']) {
      t.advance(100);
      t.tracker.update([block(a, 'Alice', text, 'https://lh3/a.png')]);
    }
    expect(t.events.map((e) => [e.captionId, e.revision, e.text, e.final])).toEqual([
      ['p-1', 0, 'Hello', false],
      ['p-1', 1, 'Hello every', false],
      ['p-1', 2, 'Hello everyone', false],
      ['p-1', 3, 'Hello everyone, welcome', false],
    ]);
    expect(t.events[0]?.avatar).toBe('https://lh3/a.png');
    expect(new Set(t.events.map((e) => e.spokenAt))).toEqual(new Set([1_000_100]));
  });

  it('orders lines first seen in one pass as Meet shows them, with strictly growing spokenAt', () => {
    const t = setup();
    t.tracker.update([block({}, 'Alice', 'One'), block({}, 'Bob', 'Two'), block({}, 'Alice', 'Three')]);
    const byId = t.latest().sort((x, y) => x.spokenAt - y.spokenAt);
    expect(byId.map((e) => e.text)).toEqual(['One', 'Two', 'Three']);
    expect(new Set(byId.map((e) => e.spokenAt)).size).toBe(3);
  });

  it('does not emit again when nothing changed', () => {
    const t = setup();
    const a = {};
    t.tracker.update([block(a, 'Alice', 'Hi there')]);
    t.tracker.update([block(a, 'Alice', 'Hi there')]);
    t.advance(100);
    t.tracker.tick();
    expect(t.events).toHaveLength(1);
  });

  it('finalizes a line when a later block belongs to another speaker, not when the same speaker continues', () => {
    const t = setup();
    const [a, b, c] = [{}, {}, {}];
    t.tracker.update([block(a, 'Alice', 'First thought')]);
    t.tracker.update([block(a, 'Alice', 'First thought'), block(b, 'Alice', 'Second thought')]);
    expect(t.latest().map((l) => [l.text, l.final])).toEqual([
      ['First thought', false],
      ['Second thought', false],
    ]);
    t.tracker.update([block(a, 'Alice', 'First thought'), block(b, 'Alice', 'Second thought'), block(c, 'Bob', 'Reply')]);
    expect(t.latest().map((l) => [l.captionId, l.text, l.final])).toEqual([
      ['p-1', 'First thought', true],
      ['p-2', 'Second thought', true],
      ['p-3', 'Reply', false],
    ]);
  });

  it('keeps emitting corrections to an older block after it became final', () => {
    const t = setup();
    const [a, b] = [{}, {}];
    t.tracker.update([block(a, 'Alice', 'I red it'), block(b, 'Bob', 'Okay')]);
    t.tracker.update([block(a, 'Alice', 'I read it'), block(b, 'Bob', 'Okay')]);
    const alice = t.events.filter((e) => e.captionId === 'p-1');
    expect(alice.at(-1)).toMatchObject({ text: 'I read it', final: true, revision: 1 });
  });

  it('finalizes after the idle timeout and reopens when the block changes again', () => {
    const t = setup();
    const a = {};
    t.tracker.update([block(a, 'Alice', 'Let me think')]);
    t.advance(6000);
    t.tracker.tick();
    expect(t.events.at(-1)).toMatchObject({ final: true, revision: 1 });
    t.advance(500);
    t.tracker.update([block(a, 'Alice', 'Let me think about it')]);
    expect(t.events.at(-1)).toMatchObject({ text: 'Let me think about it', final: false, revision: 2 });
  });

  it('finalizes a block that left the DOM after the grace time, but not one that came back', () => {
    const t = setup();
    const [a, b] = [{}, {}];
    t.tracker.update([block(a, 'Alice', 'Old words'), block(b, 'Alice', 'New words')]);
    t.tracker.update([block(b, 'Alice', 'New words')]);
    t.advance(100);
    t.tracker.update([block(a, 'Alice', 'Old words'), block(b, 'Alice', 'New words')]);
    t.advance(400);
    t.tracker.tick();
    expect(t.latest().find((l) => l.captionId === 'p-1')?.final).toBe(false);

    t.tracker.update([block(b, 'Alice', 'New words')]);
    t.advance(349);
    t.tracker.tick();
    expect(t.latest().find((l) => l.captionId === 'p-1')?.final).toBe(false);
    t.advance(1);
    t.tracker.tick();
    expect(t.latest().find((l) => l.captionId === 'p-1')).toMatchObject({ final: true, text: 'Old words' });
  });

  it('keeps the longer text through a brief shrink and takes a shrink that lasts', () => {
    const t = setup();
    const a = {};
    t.tracker.update([block(a, 'Alice', 'We should ship the release today')]);
    t.advance(50);
    t.tracker.update([block(a, 'Alice', 'We should ship')]);
    t.advance(50);
    t.tracker.update([block(a, 'Alice', 'We should ship the release today')]);
    expect(t.events.map((e) => e.text)).toEqual(['We should ship the release today']);

    t.tracker.update([block(a, 'Alice', 'We should ship the release')]);
    t.advance(999);
    t.tracker.tick();
    expect(t.events.at(-1)?.text).toBe('We should ship the release today');
    t.advance(1);
    t.tracker.tick();
    expect(t.events.at(-1)).toMatchObject({ text: 'We should ship the release', revision: 1 });
  });

  it('takes a shorter rewrite with other words at once: recognition corrected itself', () => {
    const t = setup();
    const a = {};
    const b = {};
    t.tracker.update([block(a, 'Alice', 'It has to the fashion.')]);
    t.advance(25);
    t.tracker.update([block(a, 'Alice', 'It has to be fashion.')]);
    expect(t.events.at(-1)).toMatchObject({ text: 'It has to be fashion.', revision: 1 });
    // The block leaves before any settle time: what it showed last is what is stored.
    t.tracker.update([block(b, 'Bob', 'Yeah.')]);
    t.advance(400);
    t.tracker.tick();
    expect(t.latest().find((l) => l.captionId === 'p-1')).toMatchObject({ text: 'It has to be fashion.', final: true });
  });

  it('treats a sudden large shrink as a new line and drops the words Meet kept from the old one', () => {
    const t = setup();
    const a = {};
    const long = `${'word '.repeat(60)}and this is where it ends.`;
    t.tracker.update([block(a, 'Alice', long)]);
    t.tracker.update([block(a, 'Alice', 'where it ends. Next sentence')]);
    t.tracker.update([block(a, 'Alice', 'where it ends. Next sentence goes on')]);
    expect(t.latest().map((l) => [l.captionId, l.text, l.final])).toEqual([
      ['p-1', long, true],
      ['p-1.2', 'Next sentence goes on', false],
    ]);
  });

  it('does not duplicate lines when Meet re-renders the region with new elements', () => {
    const t = setup();
    const [a, b] = [{}, {}];
    const sentence = 'This sentence is long enough to be recognised again';
    t.tracker.update([block(a, 'Alice', 'Short'), block(b, 'Bob', sentence)]);
    const [a2, b2] = [{}, {}];
    t.tracker.update([block(a2, 'Alice', 'Short'), block(b2, 'Bob', sentence)]);
    t.tracker.update([block(a2, 'Alice', 'Short'), block(b2, 'Bob', `${sentence} and it goes on`)]);
    t.advance(1000);
    t.tracker.tick();
    expect(t.latest().map((l) => [l.captionId, l.text])).toEqual([
      ['p-1', 'Short'],
      ['p-2', `${sentence} and it goes on`],
    ]);
  });

  it('keeps a short line said again after another speaker as a second line, in spoken order', () => {
    // Recorded from the fake Meet page with maxBlocks 2: the third block appears as the first one leaves.
    const t = setup();
    const [a, b, c, d] = [{}, {}, {}, {}];
    t.tracker.update([block(a, 'Alice', 'Mm-hmm.')]);
    t.advance(200);
    t.tracker.update([block(a, 'Alice', 'Mm-hmm.'), block(b, 'Bob', 'So the budget is fine')]);
    t.advance(200);
    t.tracker.update([block(b, 'Bob', 'So the budget is fine'), block(c, 'Alice', 'Mm-hmm.')]);
    t.advance(200);
    t.tracker.update([block(c, 'Alice', 'Mm-hmm.'), block(d, 'Bob', 'And?')]);
    t.advance(1000);
    t.tracker.tick();
    expect(t.latest().sort((x, y) => x.spokenAt - y.spokenAt).map((l) => [l.captionId, l.speaker, l.text, l.final])).toEqual([
      ['p-1', 'Alice', 'Mm-hmm.', true],
      ['p-2', 'Bob', 'So the budget is fine', true],
      ['p-3', 'Alice', 'Mm-hmm.', true],
      ['p-4', 'Bob', 'And?', false],
    ]);
  });

  it('keeps a repeat as a new line when captions come back empty and the speaker says it again', () => {
    const t = setup();
    const [a, b, c] = [{}, {}, {}];
    t.tracker.update([block(a, 'Alice', 'And?'), block(b, 'Bob', 'Well')]);
    t.advance(100);
    t.tracker.update([]);
    t.advance(100);
    t.tracker.update([block(c, 'Alice', 'And?')]);
    // Alone, after Meet cleared its captions: the old line is long gone.
    const [d] = [{}];
    t.advance(3000);
    t.tracker.update([]);
    t.advance(2000);
    t.tracker.update([block(d, 'Alice', 'And?')]);
    t.advance(1000);
    t.tracker.tick();
    expect(t.latest().map((l) => [l.captionId, l.speaker, l.text])).toEqual([
      ['p-1', 'Alice', 'And?'],
      ['p-2', 'Bob', 'Well'],
      ['p-3', 'Alice', 'And?'],
      ['p-4', 'Alice', 'And?'],
    ]);
  });

  it('still re-adopts blocks Meet re-renders after a moment without a region', () => {
    const t = setup();
    const [a, b] = [{}, {}];
    t.tracker.update([block(a, 'Alice', 'Mm-hmm.'), block(b, 'Bob', 'Right')]);
    t.advance(100);
    t.tracker.update([]);
    t.advance(900);
    const b2 = {};
    t.tracker.update([block({}, 'Alice', 'Mm-hmm.'), block(b2, 'Bob', 'Right')]);
    t.tracker.update([block({}, 'Alice', 'Mm-hmm.'), block(b2, 'Bob', 'Right, so')]);
    t.advance(1000);
    t.tracker.tick();
    expect(t.latest().map((l) => [l.captionId, l.text])).toEqual([
      ['p-1', 'Mm-hmm.'],
      ['p-2', 'Right, so'],
    ]);
  });

  it('replaces "You" with the user name', () => {
    const t = setup({ self: { name: 'Dana Scully' } });
    t.tracker.update([block({}, 'You', 'Can you hear me?')]);
    expect(t.events[0]?.speaker).toBe('Dana Scully');
  });

  it('recognises the self label of a non-English Meet UI and stores the account name, not the label', () => {
    const t = setup({ self: { name: 'Dana Scully', pageNames: ['Dana S.'], others: ['Fox Mulder'] } });
    t.tracker.update([
      block({}, 'Fox Mulder', 'Hören Sie mich?'),
      block({}, 'Sie', 'Ja, laut und deutlich'),
      block({}, 'Вы', 'Да'),
      block({}, 'Dana S.', 'Meet zeigt manchmal den Namen'),
    ]);
    expect(t.latest().map((l) => l.speaker)).toEqual(['Fox Mulder', 'Dana Scully', 'Dana Scully', 'Dana Scully']);
  });

  it('knows the user by avatar whatever the label, ignoring size options and the shared default avatar', () => {
    const t = setup({ self: { name: 'Dana Scully', avatar: 'https://lh3.googleusercontent.com/a/ACg8ocDana=s32-c' } });
    t.tracker.update([
      block({}, 'Kei', 'A label no table lists', 'https://lh3.googleusercontent.com/a/ACg8ocDana=s64-c-mo'),
      block({}, 'Walter Skinner', 'Someone else', 'https://lh3.googleusercontent.com/a/ACg8ocWalter=s64-c'),
    ]);
    expect(t.latest().map((l) => l.speaker)).toEqual(['Dana Scully', 'Walter Skinner']);
    expect(avatarKey('https://lh3.googleusercontent.com/a/default-user=s64-c')).toBeUndefined();
  });

  it('keeps a participant whose name is a self label in some language as that participant', () => {
    const t = setup({ self: { name: 'Dana Scully' } });
    const withLei = setup({ self: { name: 'Dana Scully', others: ['Lei'] } });
    t.tracker.update([block({}, 'Lei', 'Buongiorno')]);
    withLei.tracker.update([block({}, 'Lei', 'Buongiorno')]);
    expect(t.events[0]?.speaker).toBe('Dana Scully');
    expect(withLei.events[0]?.speaker).toBe('Lei');
  });

  it('never stores the self label as a speaker, even before the user name is known', () => {
    const t = setup();
    t.tracker.update([block({}, 'Sie', 'Hallo')]);
    expect(t.events[0]?.speaker).toBe('Unknown speaker');
  });

  it('names a block without a speaker "Unknown speaker" (the server requires a speaker)', () => {
    const t = setup();
    t.tracker.update([block({}, '', 'Anyone?')]);
    expect(t.events[0]?.speaker).toBe('Unknown speaker');
  });

  it('finalizes everything at meeting end', () => {
    const t = setup();
    t.tracker.update([block({}, 'Alice', 'Bye'), block({}, 'Alice', 'See you')]);
    t.tracker.finalizeAll();
    expect(t.latest().every((l) => l.final)).toBe(true);
    expect(t.tracker.lastLineAt).toBe(t.now);
  });
});

describe('overlapPrefix', () => {
  it('finds the words that end one text and start the next', () => {
    expect(overlapPrefix('a b c d', 'c d e')).toBe('c d');
    expect(overlapPrefix('a b c', 'x y')).toBe('');
  });
});
