import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVER_ORIGINS, handshakeReplySchema, handshakeRequestSchema, type HandshakeRequest } from '@mbox/shared';
import {
  ACCOUNT_KEY,
  AccountStore,
  SERVER_ORIGIN_KEY,
  handshakeOriginAllowed,
  pageOriginOf,
  type KeyValueStore,
} from './account.js';

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

/** `npm start`'s origin: a default, accepted before any server is set. */
const web = 'http://localhost:3000';
const signIn = (serverOrigin = web): HandshakeRequest => ({
  mboxHandshake: true,
  action: 'set-user',
  authenticated: true,
  user: { id: 'u1', email: 'a@example.com', name: 'Alice' },
  mboxToken: 'ext-token',
  serverOrigin,
});
const ask: HandshakeRequest = { mboxHandshake: true, action: 'need-user' };
const logout: HandshakeRequest = { mboxHandshake: true, action: 'set-user', authenticated: false };

describe('handshake', () => {
  it('needs the user until the web app at that origin signed it in', async () => {
    const store = new AccountStore(memoryStore());
    expect((await store.handleHandshake(web, ask, '0.1.0')).reply).toEqual({
      mboxHandshake: true,
      action: 'need-user-reply',
      needUser: true,
      connected: false,
      extensionVersion: '0.1.0',
    });
    const { reply, changed, foreign } = await store.handleHandshake(web, signIn(), '0.1.0');
    expect(reply).toEqual({ mboxHandshake: true, action: 'set-user-ack', ok: true });
    expect(changed).toBe(true);
    expect(foreign).toBe(false);
    expect((await store.handleHandshake(web, ask, '0.1.0')).reply).toMatchObject({ needUser: false, connected: true });
    expect(await store.get()).toMatchObject({ token: 'ext-token', serverOrigin: web, webOrigin: web });
    expect(await store.serverOrigin()).toBe(web);
  });

  it('refuses another localhost page while no server is set, whatever serverOrigin it names', async () => {
    const kv = memoryStore();
    const store = new AccountStore(kv);
    const page = 'http://localhost:5555';
    expect(await store.handleHandshake(page, ask, '0.1.0')).toEqual({
      reply: { mboxHandshake: true, action: 'need-user-reply', needUser: false, connected: false, extensionVersion: '0.1.0' },
      changed: false,
      foreign: true,
    });
    for (const named of [page, web, 'https://evil.example']) {
      const { reply, changed, foreign } = await store.handleHandshake(page, signIn(named), '0.1.0');
      expect(reply).toMatchObject({ action: 'set-user-ack', ok: false });
      expect((reply as { error?: string }).error).toContain('is not the server set in the Mbox extension');
      expect([changed, foreign]).toEqual([false, true]);
    }
    expect(kv.data.size).toBe(0);
  });

  it('once a server is set, only that origin signs in: the defaults stop counting', async () => {
    const store = new AccountStore(memoryStore());
    const typed = 'http://127.0.0.1:4000';
    await store.setServerOrigin(typed);
    expect((await store.handleHandshake(web, signIn(), '0.1.0')).reply).toMatchObject({ ok: false });
    expect((await store.handleHandshake(web, ask, '0.1.0')).reply).toMatchObject({ needUser: false });
    expect(await store.get()).toBeNull();
    expect((await store.handleHandshake(typed, ask, '0.1.0')).reply).toMatchObject({ needUser: true });
    expect((await store.handleHandshake(typed, signIn(typed), '0.1.0')).reply).toMatchObject({ ok: true });
    expect(await store.get()).toMatchObject({ serverOrigin: typed, webOrigin: typed });
  });

  it('the page cannot point the extension at another server', async () => {
    const store = new AccountStore(memoryStore());
    const { reply, changed } = await store.handleHandshake(web, signIn('https://evil.example'), '0.1.0');
    expect(reply).toEqual({ mboxHandshake: true, action: 'set-user-ack', ok: false, error: `serverOrigin must be this page's origin (${web})` });
    expect(changed).toBe(false);
    expect(await store.get()).toBeNull();
    expect(await store.serverOrigin()).toBeNull();
  });

  it('a default origin that signed in becomes the server: the other default is refused after it', async () => {
    const store = new AccountStore(memoryStore());
    await store.handleHandshake(web, signIn(), '0.1.0');
    const other = 'http://127.0.0.1:3000';
    expect((await store.handleHandshake(other, signIn(other), '0.1.0')).reply).toMatchObject({ ok: false });
    expect((await store.get())?.serverOrigin).toBe(web);
  });

  it('needs the user again after the server rejected the token', async () => {
    const store = new AccountStore(memoryStore());
    await store.handleHandshake(web, signIn(), '0.1.0');
    await store.reject();
    expect((await store.handleHandshake(web, ask, '0.1.0')).reply).toMatchObject({ needUser: true });
  });

  it('signs out only for the web app that signed in, keeping the server origin', async () => {
    const kv = memoryStore();
    const store = new AccountStore(kv);
    await store.handleHandshake(web, signIn(), '0.1.0');
    expect((await store.handleHandshake('http://localhost:9999', logout, '0.1.0')).changed).toBe(false);
    expect(await store.get()).not.toBeNull();
    expect((await store.handleHandshake(web, logout, '0.1.0')).changed).toBe(true);
    expect(kv.data.has(ACCOUNT_KEY)).toBe(false);
    expect(kv.data.get(SERVER_ORIGIN_KEY)).toBe(web);
  });

  it('switching to another server signs out', async () => {
    const store = new AccountStore(memoryStore());
    await store.handleHandshake(web, signIn(), '0.1.0');
    await store.setServerOrigin(web);
    expect(await store.get()).not.toBeNull();
    await store.setServerOrigin('https://mbox.example.com');
    expect(await store.get()).toBeNull();
    expect(await store.serverOrigin()).toBe('https://mbox.example.com');
  });
});

describe('handshakeOriginAllowed', () => {
  it('is the set server, or while none is set one of the defaults', () => {
    expect(DEFAULT_SERVER_ORIGINS).toEqual(['http://localhost:3000', 'http://127.0.0.1:3000']);
    expect(handshakeOriginAllowed('http://localhost:3000', null)).toBe(true);
    expect(handshakeOriginAllowed('http://127.0.0.1:3000', null)).toBe(true);
    expect(handshakeOriginAllowed('http://localhost:3001', null)).toBe(false);
    expect(handshakeOriginAllowed('https://localhost:3000', null)).toBe(false);
    expect(handshakeOriginAllowed('https://mbox.example.com', 'https://mbox.example.com')).toBe(true);
    expect(handshakeOriginAllowed('http://localhost:3000', 'https://mbox.example.com')).toBe(false);
  });
});

describe('pageOriginOf', () => {
  const tab = { id: 7 };
  it("takes Chrome's record of the top-level page that sent the message", () => {
    expect(pageOriginOf({ tab, frameId: 0, origin: 'http://localhost:3000', url: 'http://localhost:3000/app?x=1' })).toBe('http://localhost:3000');
    expect(pageOriginOf({ tab, frameId: 0, url: 'http://127.0.0.1:4000/login' })).toBe('http://127.0.0.1:4000');
    // sender.origin wins over the URL (e.g. an about:blank or srcdoc document inherits its creator's origin).
    expect(pageOriginOf({ tab, frameId: 0, origin: 'http://localhost:5555', url: 'about:blank' })).toBe('http://localhost:5555');
  });

  it('is null for a subframe, a sender without a tab or an opaque origin', () => {
    expect(pageOriginOf({ tab, frameId: 3, origin: 'http://localhost:3000' })).toBeNull();
    expect(pageOriginOf({ frameId: 0, origin: 'http://localhost:3000' })).toBeNull();
    expect(pageOriginOf({ tab, frameId: 0, origin: 'null' })).toBeNull();
    expect(pageOriginOf({ tab, frameId: 0 })).toBeNull();
  });
});

describe('handshake schema (shared with the web app)', () => {
  it('accepts the page messages and rejects malformed ones', () => {
    expect(handshakeRequestSchema.safeParse(signIn()).success).toBe(true);
    expect(handshakeRequestSchema.safeParse({ ...signIn(), mboxToken: '' }).success).toBe(false);
    expect(handshakeRequestSchema.safeParse({ ...signIn(), serverOrigin: 'http://localhost:3000/app' }).success).toBe(false);
    expect(handshakeRequestSchema.safeParse({ mboxHandshake: true, action: 'set-user', authenticated: false }).success).toBe(true);
    expect(handshakeReplySchema.safeParse({ mboxHandshake: true, action: 'need-user-reply', needUser: false, extensionVersion: '0.1.0' }).success).toBe(true);
  });
});
