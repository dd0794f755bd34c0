/**
 * Web app ↔ extension handshake (product.md, Data / States). The extension's bridge content script listens for
 * window messages on our origin: we ask whether it needs the user and, if so, hand it the user, an
 * extension token and our origin.
 */
import {
  needUserReplySchema,
  setUserAckSchema,
  type HandshakeRequest,
  type HandshakeUser,
  type NeedUserReply,
} from '@mbox/shared/handshake';

export const HANDSHAKE_TIMEOUT_MS = 1000;
/** The bridge answers at once; the wait only bounds a broken extension. */
export const SET_USER_ACK_TIMEOUT_MS = 3000;

function post(message: HandshakeRequest): void {
  window.postMessage(message, location.origin);
}

/** Resolves with the first window message that `schema` accepts, or null after `timeoutMs`. */
function waitFor<T>(schema: { safeParse(data: unknown): { success: true; data: T } | { success: false } }, timeoutMs: number): Promise<T | null> {
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent) => {
      // Only our own origin (the bridge content script posts on our window) may answer.
      if (event.origin !== location.origin) return;
      const parsed = schema.safeParse(event.data);
      if (!parsed.success) return;
      cleanup();
      resolve(parsed.data);
    };
    const timer = setTimeout(() => {
      cleanup();
      resolve(null);
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
    };
    window.addEventListener('message', onMessage);
  });
}

/** Asks the extension about this page's origin; null when no extension answered within `timeoutMs`. */
export function askExtension(timeoutMs = HANDSHAKE_TIMEOUT_MS): Promise<NeedUserReply | null> {
  const reply = waitFor(needUserReplySchema, timeoutMs);
  post({ mboxHandshake: true, action: 'need-user' });
  return reply;
}

/**
 * Where the extension stands with this server, as the handshake last found it: `missing` (no extension
 * answered), `not-connected` (installed, but it holds no token for this server: set to another server,
 * or the hand-over failed), `connected`; `checking` until the first answer.
 */
export type ExtensionConnection = 'checking' | 'missing' | 'not-connected' | 'connected';

let connection: ExtensionConnection = 'checking';
const connectionListeners = new Set<() => void>();

function publish(next: ExtensionConnection): ExtensionConnection {
  if (next !== connection) {
    connection = next;
    for (const listener of connectionListeners) listener();
  }
  return next;
}

/** The last known ExtensionConnection, for useSyncExternalStore. */
export const extensionConnection = {
  get: (): ExtensionConnection => connection,
  subscribe(listener: () => void): () => void {
    connectionListeners.add(listener);
    return () => connectionListeners.delete(listener);
  },
};

/** Hands the user and its extension token to the extension; true when the bridge acknowledged. */
export async function sendUserToExtension(user: HandshakeUser, mboxToken: string): Promise<boolean> {
  const ack = waitFor(setUserAckSchema, SET_USER_ACK_TIMEOUT_MS);
  post({
    mboxHandshake: true,
    action: 'set-user',
    authenticated: true,
    user: { id: user.id, email: user.email, name: user.name },
    mboxToken,
    serverOrigin: location.origin,
  });
  const answer = await ack;
  if (answer && !answer.ok) console.warn('[mbox] extension refused the user:', answer.error);
  return answer?.ok === true;
}

export function signOutExtension(): void {
  handOverFailed = false;
  publish('checking');
  post({ mboxHandshake: true, action: 'set-user', authenticated: false });
}

/** A hand-over the extension refused is not tried again in this page (each try mints a token). */
let handOverFailed = false;
let running: Promise<ExtensionConnection> | null = null;

/**
 * The whole exchange: ask, and only when the extension wants the user fetch a token and send it.
 * A missing token is logged and an empty token is sent. One exchange at a time (a second call
 * joins the one running); resolves with the ExtensionConnection it found, which it also publishes.
 */
export function runHandshake(user: HandshakeUser, fetchExtensionToken: () => Promise<string>): Promise<ExtensionConnection> {
  running ??= exchange(user, fetchExtensionToken).finally(() => {
    running = null;
  });
  return running;
}

async function exchange(user: HandshakeUser, fetchExtensionToken: () => Promise<string>): Promise<ExtensionConnection> {
  const reply = await askExtension();
  if (!reply) return publish('missing');
  // An extension that predates `connected` says only whether it needs the user.
  if (!reply.needUser) return publish(reply.connected === false ? 'not-connected' : 'connected');
  if (handOverFailed) return publish('not-connected');
  let token = '';
  try {
    token = await fetchExtensionToken();
  } catch (error) {
    console.warn('[mbox] no extension token', error);
  }
  if (!token) console.warn('[mbox] extension token missing: sending an empty token');
  const ok = await sendUserToExtension(user, token);
  if (!ok) {
    console.warn('[mbox] extension did not acknowledge the user');
    handOverFailed = true;
  }
  return publish(ok ? 'connected' : 'not-connected');
}
