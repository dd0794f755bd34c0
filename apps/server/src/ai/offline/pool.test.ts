import { describe, expect, it } from 'vitest';
import { inlineRunner, workerPoolRunner } from './pool.js';

describe('offline runner turns', () => {
  it('runs at most one whole-meeting work per thread: the others wait before they start reading', async () => {
    const runner = workerPoolRunner(2);
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const works = [0, 1, 2, 3].map((i) =>
      runner.turn(async () => {
        started.push(i);
        await new Promise<void>((resolve) => finish.push(resolve));
        return i;
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
    finish[0]!();
    await works[0];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    finish[1]!();
    finish[2]!();
    await new Promise((r) => setImmediate(r));
    finish[3]!();
    expect(await Promise.all(works)).toEqual([0, 1, 2, 3]);
    await runner.close();
  });

  it('a work that fails frees its turn', async () => {
    const runner = workerPoolRunner(1);
    await expect(runner.turn(() => Promise.reject(new Error('unreadable meeting')))).rejects.toThrow('unreadable meeting');
    expect(await runner.turn(() => Promise.resolve('next'))).toBe('next');
    await runner.close();
  });

  it('in the calling thread (tests, scripts) works run at once', async () => {
    let running = 0;
    let most = 0;
    await Promise.all(
      [1, 2, 3].map(() =>
        inlineRunner.turn(async () => {
          most = Math.max(most, ++running);
          await new Promise((r) => setImmediate(r));
          running--;
        }),
      ),
    );
    expect(most).toBe(3);
  });
});
