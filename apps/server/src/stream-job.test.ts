import { describe, expect, it, vi } from 'vitest';
import { streamJob } from './stream-job.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('streamJob', () => {
  it('yields the events as the job emits them, then returns its result', async () => {
    const onUndelivered = vi.fn(async () => {});
    const stream = streamJob<string, number>(
      async (emit) => {
        emit('a');
        await tick();
        emit('b');
        emit('c');
        return 42;
      },
      { signals: [], onUndelivered },
    );
    const seen: string[] = [];
    let next = await stream.next();
    while (!next.done) {
      seen.push(next.value);
      next = await stream.next();
    }
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(next.value).toBe(42);
    expect(onUndelivered).not.toHaveBeenCalled();
  });

  it('aborts the job and runs onUndelivered once when the subscriber leaves early', async () => {
    const onUndelivered = vi.fn(async () => {});
    let aborted = false;
    const stream = streamJob<string, number>(
      (emit, signal) =>
        new Promise((_resolve, reject) => {
          emit('first');
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
        }),
      { signals: [undefined], onUndelivered },
    );
    expect((await stream.next()).value).toBe('first');
    await stream.return(0);
    expect(aborted).toBe(true);
    expect(onUndelivered).toHaveBeenCalledTimes(1);
  });

  it('rethrows a failed job after the events it emitted, and runs onUndelivered', async () => {
    const onUndelivered = vi.fn(async () => {});
    const stream = streamJob<string, number>(
      async (emit) => {
        emit('partial');
        await tick();
        throw new Error('model down');
      },
      { signals: [], onUndelivered },
    );
    expect((await stream.next()).value).toBe('partial');
    await expect(stream.next()).rejects.toThrow('model down');
    expect(onUndelivered).toHaveBeenCalledTimes(1);
  });

  it('stops when an outside signal aborts (server shutdown)', async () => {
    const shutdown = new AbortController();
    const stream = streamJob<string, number>(
      (_emit, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('shutdown')))),
      { signals: [shutdown.signal], onUndelivered: async () => {} },
    );
    const pending = stream.next();
    shutdown.abort();
    await expect(pending).rejects.toThrow('shutdown');
  });
});
