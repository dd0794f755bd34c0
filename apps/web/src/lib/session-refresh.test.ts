import { createTRPCClient, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { describe, expect, it } from 'vitest';
import { apiError } from '../test/fake-trpc';
import { authStore, USER_KEY } from './auth';
import { sessionRefreshLink, type AppRouter } from './trpc';

/** A terminating link answering each call from a list of outcomes, in order. */
function scripted(outcomes: ('ok' | 401 | 500)[]) {
  let calls = 0;
  const link: TRPCLink<AppRouter> = () => () =>
    observable((observer) => {
      const outcome = outcomes[calls++] ?? 'ok';
      if (outcome === 'ok') {
        observer.next({ result: { type: 'data', data: { id: 'u1', email: 'a@b.co', name: 'A', avatarUrl: '' } } });
        observer.complete();
      } else observer.error(apiError(outcome, outcome === 401 ? 'UNAUTHORIZED' : 'INTERNAL_SERVER_ERROR'));
      return () => {};
    });
  return { link, calls: () => calls };
}

describe('session refresh link', () => {
  it('refreshes the session once after a 401 and retries the call', async () => {
    const server = scripted([401, 'ok']);
    let refreshes = 0;
    const client = createTRPCClient<AppRouter>({
      links: [sessionRefreshLink(async () => (refreshes++, true)), server.link],
    });
    await expect(client.auth.me.query()).resolves.toMatchObject({ id: 'u1' });
    expect([refreshes, server.calls()]).toEqual([1, 2]);
  });

  it('keeps the 401 when the refresh fails (signed out), and does not refresh other errors', async () => {
    const signedOut = scripted([401]);
    const client = createTRPCClient<AppRouter>({ links: [sessionRefreshLink(async () => false), signedOut.link] });
    const error = await client.auth.me.query().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({ httpStatus: 401 });
    expect(signedOut.calls()).toBe(1);

    let refreshes = 0;
    const failing = scripted([500]);
    const other = createTRPCClient<AppRouter>({ links: [sessionRefreshLink(async () => (refreshes++, true)), failing.link] });
    await expect(other.auth.me.query()).rejects.toBeInstanceOf(TRPCClientError);
    expect([refreshes, failing.calls()]).toEqual([0, 1]);
  });

  it('gives up after the documented 2 retries even when refreshes succeed', async () => {
    const server = scripted([401, 401, 401, 'ok']);
    const client = createTRPCClient<AppRouter>({ links: [sessionRefreshLink(async () => true), server.link] });
    await expect(client.auth.me.query()).rejects.toBeInstanceOf(TRPCClientError);
    expect(server.calls()).toBe(3);
  });
});

describe('auth store', () => {
  it('keeps only a user hint: no token in storage, and an old stored token is removed', () => {
    localStorage.setItem('mbox.token', 'eyJ.old.token');
    authStore.reload();
    expect(localStorage.getItem('mbox.token')).toBeNull();
    authStore.signIn({ id: 'u1', email: 'a@b.co', name: 'A' });
    expect(JSON.parse(localStorage.getItem(USER_KEY) ?? 'null')).toEqual({ id: 'u1', email: 'a@b.co', name: 'A' });
    expect(Object.values(localStorage).join(' ')).not.toMatch(/eyJ/);
    authStore.signOut();
    expect(localStorage.getItem(USER_KEY)).toBeNull();
  });
});
