import { type HandshakeReply, type HandshakeRequest } from '@mbox/shared';
import { accountSchema, type Account } from '../messages.js';

/** chrome.storage.local in the extension; a Map in tests. */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  remove(key: string): Promise<void>;
}

export function chromeLocalStore(): KeyValueStore {
  return {
    get: async (key) => (await chrome.storage.local.get(key))[key],
    set: (key, value) => chrome.storage.local.set({ [key]: value }),
    remove: (key) => chrome.storage.local.remove(key),
  };
}

/** Storage keys; the content script reads ACCOUNT_KEY for the user's name. */
export const ACCOUNT_KEY = 'account';
export const SERVER_ORIGIN_KEY = 'serverOrigin';

export class AccountStore {
  constructor(private readonly kv: KeyValueStore) {}

  async get(): Promise<Account | null> {
    const parsed = accountSchema.safeParse(await this.kv.get(ACCOUNT_KEY));
    return parsed.success ? parsed.data : null;
  }

  /** The server the user chose; kept while signed out so the popup can show and edit it. */
  async serverOrigin(): Promise<string | null> {
    const value = await this.kv.get(SERVER_ORIGIN_KEY);
    return typeof value === 'string' ? value : null;
  }

  /** A different server cannot accept the current token: switching signs out. */
  async setServerOrigin(origin: string): Promise<void> {
    const account = await this.get();
    if (account && account.serverOrigin !== origin) await this.kv.remove(ACCOUNT_KEY);
    await this.kv.set(SERVER_ORIGIN_KEY, origin);
  }

  async reject(): Promise<void> {
    const account = await this.get();
    if (account) await this.kv.set(ACCOUNT_KEY, { ...account, rejected: true });
  }

  /**
   * Answers a handshake message from the web app page at `origin` (already checked against the
   * sender). Returns the reply for the page and whether the account changed.
   */
  async handleHandshake(
    origin: string,
    request: HandshakeRequest,
    extensionVersion: string,
  ): Promise<{ reply: HandshakeReply; changed: boolean }> {
    const account = await this.get();
    if (request.action === 'need-user') {
      const needUser = !account || account.rejected || account.webOrigin !== origin;
      return {
        reply: { mboxHandshake: true, action: 'need-user-reply', needUser, extensionVersion },
        changed: false,
      };
    }
    const ack: HandshakeReply = { mboxHandshake: true, action: 'set-user-ack', ok: true };
    if (!request.authenticated) {
      // Only the web app that signed the extension in may sign it out.
      if (!account || account.webOrigin !== origin) return { reply: ack, changed: false };
      await this.kv.remove(ACCOUNT_KEY);
      return { reply: ack, changed: true };
    }
    const next: Account = {
      user: { id: request.user.id, email: request.user.email, name: request.user.name },
      token: request.mboxToken,
      serverOrigin: request.serverOrigin,
      webOrigin: origin,
      rejected: false,
    };
    await this.kv.set(ACCOUNT_KEY, next);
    await this.kv.set(SERVER_ORIGIN_KEY, request.serverOrigin);
    return { reply: ack, changed: true };
  }
}
