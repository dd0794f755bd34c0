import { describe, expect, it } from 'vitest';
import { LiveFeed, untilAborted, type FollowSource } from './live-feed.js';

/** A source whose values and end the test drives; it records the signal it was given. */
function drivenSource() {
  let deliver: ((value: number) => void) | null = null;
  let finish: (() => void) | null = null;
  let fail: ((error: unknown) => void) | null = null;
  const signals: AbortSignal[] = [];
  let listening: (() => void) | null = null;
  const source: FollowSource<number> = (next, signal, ready) => {
    deliver = next;
    signals.push(signal);
    listening = ready;
    return new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  };
  return {
    source,
    signals,
    push: (value: number) => deliver?.(value),
    listen: () => listening?.(),
    end: () => finish?.(),
    fail: (error: unknown) => fail?.(error),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A feed over a driven source, read as an async iterable; the first read is waiting once it resolves. */
async function reading() {
  const driven = drivenSource();
  const iterator = new LiveFeed(driven.source, new AbortController().signal)[Symbol.asyncIterator]();
  const first = iterator.next();
  await tick();
  return { driven, iterator, first };
}

describe('LiveFeed', () => {
  it('tells follow() when the source listens, then hands over each value as it is delivered, until the source ends', async () => {
    const driven = drivenSource();
    const feed = new LiveFeed(driven.source, new AbortController().signal);
    const seen: number[] = [];
    let listening = false;
    const followed = feed.follow(
      (value) => seen.push(value),
      () => (listening = true),
    );
    expect(listening).toBe(false);
    driven.listen();
    expect(listening).toBe(true);
    driven.push(1);
    driven.push(2);
    expect(seen).toEqual([1, 2]);
    driven.end();
    await followed;
  });

  it('reads as an async iterable: values queued in order while the reader is busy', async () => {
    const { driven, iterator, first } = await reading();
    driven.push(1);
    driven.push(2);
    driven.push(3);
    expect(await first).toEqual({ value: 1, done: false });
    expect(await iterator.next()).toEqual({ value: 2, done: false });
    expect(await iterator.next()).toEqual({ value: 3, done: false });
    const last = iterator.next();
    driven.end();
    expect(await last).toEqual({ value: undefined, done: true });
  });

  it("rethrows the source's failure to the reader after the values delivered before it", async () => {
    const { driven, iterator, first } = await reading();
    driven.push(7);
    driven.fail(new Error('listener lost'));
    expect(await first).toEqual({ value: 7, done: false });
    await expect(iterator.next()).rejects.toThrow('listener lost');
  });

  it('stops the source when the reader leaves early', async () => {
    const { driven, iterator, first } = await reading();
    driven.push(1);
    await first;
    expect(driven.signals[0]?.aborted).toBe(false);
    await iterator.return?.(undefined);
    expect(driven.signals[0]?.aborted).toBe(true);
  });

  it('ends both ways when its signal aborts', async () => {
    const driven = drivenSource();
    const stop = new AbortController();
    const feed = new LiveFeed(driven.source, stop.signal);
    const followed = feed.follow(
      () => {},
      () => {},
    );
    const iterator = feed[Symbol.asyncIterator]();
    const next = iterator.next();
    await tick();
    stop.abort();
    await followed;
    expect(await next).toEqual({ value: undefined, done: true });
    expect(driven.signals.every((signal) => signal.aborted)).toBe(true);
  });

  it('untilAborted resolves on abort, and at once for a signal already aborted', async () => {
    await untilAborted(AbortSignal.abort());
    const stop = new AbortController();
    let resolved = false;
    const waiting = untilAborted(stop.signal).then(() => (resolved = true));
    await tick();
    expect(resolved).toBe(false);
    stop.abort();
    await waiting;
    expect(resolved).toBe(true);
  });
});
