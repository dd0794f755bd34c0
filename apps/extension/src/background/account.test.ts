import { describe, expect, it } from 'vitest';
import { handshakeReplySchema, handshakeRequestSchema, type HandshakeRequest } from '@mbox/shared';
import { ACCOUNT_KEY, AccountStore, SERVER_ORIGIN_KEY, type KeyValueStore } from './account.js';

function memoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: async (key) => data.get(key),
    set: async (key, value) => {
      data.set(key, value);
    },
    remove: async (key) => {
      data.delete(key);
    },
  };
}

const web = 'http://localhost:5173';
const signIn: HandshakeRequest = {
  mboxHandshake: true,
  action: 'set-user',
  authenticated: true,
  user: { id: 'u1', email: 'a@example.com', name: 'Alice' },
  mboxToken: 'ext-token',
  serverOrigin: 'http://localhost:3000',
};

describe('handshake', () => {
  it('needs the user until the web app at that origin signed it in', async () => {
    const store = new AccountStore(memoryStore());
    const ask: HandshakeRequest = { mboxHandshake: true, action: 'need-user' };
    expect((await store.handleHandshake(web, ask, '0.1.0')).reply).toEqual({
      mboxHandshake: true,
      action: 'need-user-reply',
      needUser: true,
      extensionVersion: '0.1.0',
    });
    const { reply, changed } = await store.handleHandshake(web, signIn, '0.1.0');
    expect(reply).toEqual({ mboxHandshake: true, action: 'set-user-ack', ok: true });
    expect(changed).toBe(true);
    expect((await store.handleHandshake(web, ask, '0.1.0')).reply).toMatchObject({ needUser: false });
    expect((await store.handleHandshake('http://127.0.0.1:9999', ask, '0.1.0')).reply).toMatchObject({ needUser: true });
    expect(await store.get()).toMatchObject({ token: 'ext-token', serverOrigin: 'http://localhost:3000', webOrigin: web });
    expect(await store.serverOrigin()).toBe('http://localhost:3000');
  });

  it('needs the user again after the server rejected the token', async () => {
    const store = new AccountStore(memoryStore());
    await store.handleHandshake(web, signIn, '0.1.0');
    await store.reject();
    expect((await store.handleHandshake(web, { mboxHandshake: true, action: 'need-user' }, '0.1.0')).reply).toMatchObject({ needUser: true });
  });

  it('signs out only for the web app that signed in, keeping the server origin', async () => {
    const kv = memoryStore();
    const store = new AccountStore(kv);
    await store.handleHandshake(web, signIn, '0.1.0');
    const logout: HandshakeRequest = { mboxHandshake: true, action: 'set-user', authenticated: false };
    expect((await store.handleHandshake('http://localhost:9999', logout, '0.1.0')).changed).toBe(false);
    expect(await store.get()).not.toBeNull();
    expect((await store.handleHandshake(web, logout, '0.1.0')).changed).toBe(true);
    expect(kv.data.has(ACCOUNT_KEY)).toBe(false);
    expect(kv.data.get(SERVER_ORIGIN_KEY)).toBe('http://localhost:3000');
  });

  it('switching to another server signs out', async () => {
    const store = new AccountStore(memoryStore());
    await store.handleHandshake(web, signIn, '0.1.0');
    await store.setServerOrigin('http://localhost:3000');
    expect(await store.get()).not.toBeNull();
    await store.setServerOrigin('https://mbox.example.com');
    expect(await store.get()).toBeNull();
    expect(await store.serverOrigin()).toBe('https://mbox.example.com');
  });
});

describe('handshake schema (shared with the web app)', () => {
  it('accepts the page messages and rejects malformed ones', () => {
    expect(handshakeRequestSchema.safeParse(signIn).success).toBe(true);
    expect(handshakeRequestSchema.safeParse({ ...signIn, mboxToken: '' }).success).toBe(false);
    expect(handshakeRequestSchema.safeParse({ ...signIn, serverOrigin: 'http://localhost:3000/app' }).success).toBe(false);
    expect(handshakeRequestSchema.safeParse({ mboxHandshake: true, action: 'set-user', authenticated: false }).success).toBe(true);
    expect(handshakeReplySchema.safeParse({ mboxHandshake: true, action: 'need-user-reply', needUser: false, extensionVersion: '0.1.0' }).success).toBe(true);
  });
});
