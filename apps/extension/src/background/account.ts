import { DEFAULT_SERVER_ORIGINS, type HandshakeReply, type HandshakeRequest } from '@mbox/shared';
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

/**
 * The handshake rule (docs/security.md, "Extension bridge and outbox"): a page may hand the extension a
 * user only when its origin — as Chrome reports the sender, never as the page or bridge claims — is the
 * server set in the popup or, while none is set, one of the defaults. A page never names the server.
 */
export function handshakeOriginAllowed(pageOrigin: string, configuredOrigin: string | null): boolean {
  return configuredOrigin === null ? DEFAULT_SERVER_ORIGINS.includes(pageOrigin) : pageOrigin === configuredOrigin;
}

/** What Chrome says about a message's sender (the subset of chrome.runtime.MessageSender read here). */
export interface PageSender {
  origin?: string;
  url?: string;
  frameId?: number;
  tab?: { id?: number };
}

/**
 * The origin of the top-level page a content-script message came from, from Chrome's own record of the
 * sender; null for anything else (no tab, a subframe, an opaque origin).
 */
export function pageOriginOf(sender: PageSender): string | null {
  if (sender.tab?.id === undefined || sender.frameId !== 0) return null;
  const raw = sender.origin ?? sender.url;
  if (!raw) return null;
  try {
    const origin = new URL(raw).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

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
   * Answers a handshake message from the web app page at `origin` (Chrome's record of the sender).
   * Returns the reply for the page, whether the account changed, and `foreign` when the page is not the
   * server the extension is set to (nothing it sends changes anything; the popup names it).
   */
  async handleHandshake(
    origin: string,
    request: HandshakeRequest,
    extensionVersion: string,
  ): Promise<{ reply: HandshakeReply; changed: boolean; foreign: boolean }> {
    const account = await this.get();
    const foreign = !handshakeOriginAllowed(origin, await this.serverOrigin());
    const answer = (reply: HandshakeReply, changed = false) => ({ reply, changed, foreign });
    if (request.action === 'need-user') {
      // A foreign page is told nothing is needed, so it never mints a token the extension would refuse,
      // and that it is not connected, so it can say so.
      const connected = !foreign && !!account && !account.rejected && account.webOrigin === origin;
      const needUser = !foreign && !connected;
      return answer({ mboxHandshake: true, action: 'need-user-reply', needUser, connected, extensionVersion });
    }
    const ack: HandshakeReply = { mboxHandshake: true, action: 'set-user-ack', ok: true };
    const refuse = (error: string) => answer({ mboxHandshake: true, action: 'set-user-ack', ok: false, error });
    if (!request.authenticated) {
      // Only the web app that signed the extension in may sign it out.
      if (!account || account.webOrigin !== origin) return answer(ack);
      await this.kv.remove(ACCOUNT_KEY);
      return answer(ack, true);
    }
    if (foreign) return refuse(`${origin} is not the server set in the Mbox extension; enter it in the extension's popup first`);
    if (request.serverOrigin !== origin) return refuse(`serverOrigin must be this page's origin (${origin})`);
    const next: Account = {
      user: { id: request.user.id, email: request.user.email, name: request.user.name },
      token: request.mboxToken,
      serverOrigin: origin,
      webOrigin: origin,
      rejected: false,
    };
    await this.kv.set(ACCOUNT_KEY, next);
    // A default origin becomes the configured one: from now on only it may sign in.
    await this.kv.set(SERVER_ORIGIN_KEY, origin);
    return answer(ack, true);
  }
}
