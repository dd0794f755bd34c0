import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { settleRunningFetch } from './running-fetch';

describe('settleRunningFetch', () => {
  it('answers at once, false, when no fetch of the query runs', async () => {
    const client = new QueryClient();
    let reads = 0;
    await client.fetchQuery({ queryKey: ['list'], queryFn: async () => ++reads });
    expect(await settleRunningFetch(client, ['list'])).toBe(false);
    expect(reads).toBe(1);
  });

  it('waits for the running fetch without starting another, and says there was one', async () => {
    const client = new QueryClient();
    let reads = 0;
    let answer: (value: number) => void = () => {};
    const running = client.fetchQuery({ queryKey: ['list'], queryFn: () => new Promise<number>((resolve) => { reads += 1; answer = resolve; }) });
    let settled = false;
    const waiting = settleRunningFetch(client, ['list']).then((was) => {
      settled = true;
      return was;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    answer(7);
    expect(await waiting).toBe(true);
    expect(await running).toBe(7);
    expect(reads).toBe(1);
    expect(client.getQueryData(['list'])).toBe(7);
  });

  it('settles when the running fetch fails', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const running = client.fetchQuery({ queryKey: ['list'], queryFn: () => Promise.reject(new Error('down')) });
    expect(await settleRunningFetch(client, ['list'])).toBe(true);
    await expect(running).rejects.toThrow('down');
  });
});
