/**
 * Delivers a source's values to `deliver` until `signal` aborts, then resolves; rejects when the source
 * fails (its subscriber is told, and the feed ends). It calls `listening` once it can miss no value: a
 * client told so then reads what came before without a gap.
 */
export type FollowSource<T> = (deliver: (value: T) => void, signal: AbortSignal, listening: () => void) => Promise<void>;

/**
 * What a subscription answers: values pushed by a source, read either way.
 * - `follow(deliver)`: each value handed over as it comes, which the SSE route writes straight to the
 *   socket (trpc/direct-subscription.ts). Nothing is left pending from one value to the next, so a
 *   thousand open live views give young collections nothing to promote (docs/performance.md).
 * - As an AsyncIterable, which tRPC reads a subscription by, queueing what the reader has not taken yet.
 */
export class LiveFeed<T> implements AsyncIterable<T> {
  constructor(
    private readonly source: FollowSource<T>,
    private readonly signal: AbortSignal,
  ) {}

  follow(deliver: (value: T) => void, listening: () => void): Promise<void> {
    return this.source(deliver, this.signal, listening);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    // The source stops when the reader leaves (return() runs the finally) as well as on the signal.
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    this.signal.addEventListener('abort', onAbort, { once: true });
    if (this.signal.aborted) stop.abort();
    const queue: T[] = [];
    let wake: (() => void) | null = null;
    let ended = false;
    let failure: { error: unknown } | null = null;
    this.source(
      (value) => {
        queue.push(value);
        wake?.();
      },
      stop.signal,
      // tRPC tells its client it is connected before it reads.
      () => {},
    ).then(
      () => {
        ended = true;
        wake?.();
      },
      (error: unknown) => {
        failure = { error };
        wake?.();
      },
    );
    try {
      while (!stop.signal.aborted) {
        if (queue.length > 0) {
          yield queue.shift() as T;
          continue;
        }
        if (failure) throw (failure as { error: unknown }).error;
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    } finally {
      this.signal.removeEventListener('abort', onAbort);
      stop.abort();
    }
  }
}

/** Resolves when `signal` aborts (at once if it has). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
