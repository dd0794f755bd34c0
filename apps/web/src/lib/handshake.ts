/**
 * Web app ↔ extension handshake (spec §3/§4). The extension's bridge content script listens for
 * window messages on our origin: we ask whether it needs the user and, if so, hand it the user, an
 * extension token and our origin.
 */
import {
  needUserReplySchema,
  setUserAckSchema,
  type HandshakeRequest,
  type HandshakeUser,
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

/** Asks the extension whether it needs the user; no answer within 1 s means no extension, nothing needed. */
export async function extensionNeedsUser(timeoutMs = HANDSHAKE_TIMEOUT_MS): Promise<boolean> {
  const reply = waitFor(needUserReplySchema, timeoutMs);
  post({ mboxHandshake: true, action: 'need-user' });
  return (await reply)?.needUser === true;
}

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
  post({ mboxHandshake: true, action: 'set-user', authenticated: false });
}

/**
 * The whole exchange: ask, and only when the extension wants the user fetch a token and send it.
 * Spec §8: a missing token is logged and an empty token is sent.
 */
export async function runHandshake(user: HandshakeUser, fetchExtensionToken: () => Promise<string>): Promise<void> {
  if (!(await extensionNeedsUser())) return;
  let token = '';
  try {
    token = await fetchExtensionToken();
  } catch (error) {
    console.warn('[mbox] no extension token', error);
  }
  if (!token) console.warn('[mbox] extension token missing: sending an empty token');
  const ok = await sendUserToExtension(user, token);
  if (!ok) console.warn('[mbox] extension did not acknowledge the user');
}
