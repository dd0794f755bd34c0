import { z } from 'zod';

/**
 * Handshake between the web app and the extension (product.md, Data "Extension handshake message", product.md, States start-up).
 * Both sides talk through window.postMessage on the web app's own origin; a content script of the
 * extension (the bridge) answers. Every message carries `mboxHandshake: true` so either side can ignore
 * unrelated window messages cheaply.
 *
 *   page → bridge  { mboxHandshake, action: 'need-user' }
 *   bridge → page  { mboxHandshake, action: 'need-user-reply', needUser, connected, extensionVersion }
 *   page → bridge  { mboxHandshake, action: 'set-user', authenticated: true, user, mboxToken, serverOrigin }
 *   page → bridge  { mboxHandshake, action: 'set-user', authenticated: false }        (logout)
 *   bridge → page  { mboxHandshake, action: 'set-user-ack', ok, error? }
 */

/**
 * Where `npm start` serves Mbox (PORT 3000, both loopback spellings): the only pages that may sign the
 * extension in before the user has set a server in its popup.
 */
export const DEFAULT_SERVER_ORIGINS: readonly string[] = ['http://localhost:3000', 'http://127.0.0.1:3000'];

/** True when `value` is exactly an http(s) origin such as `https://mbox.example.com` or `http://localhost:3000`. */
export function isHttpOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/** Accepts what a user might type ("mbox.example.com/", "http://localhost:3000/app") and returns its origin. */
export function normalizeOrigin(input: string): string | null {
  const trimmed = input.trim();
  if (!trimmed) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

export const httpOriginSchema = z
  .string()
  .refine(isHttpOrigin, 'must be an origin such as https://mbox.example.com (scheme, host, optional port; no path)');

export const handshakeUserSchema = z.object({
  id: z.string().min(1),
  email: z.string(),
  name: z.string(),
});
export type HandshakeUser = z.infer<typeof handshakeUserSchema>;

const base = { mboxHandshake: z.literal(true) };

export const needUserRequestSchema = z.object({ ...base, action: z.literal('need-user') });
export type NeedUserRequest = z.infer<typeof needUserRequestSchema>;

export const needUserReplySchema = z.object({
  ...base,
  action: z.literal('need-user-reply'),
  /** True when the extension holds no token for the asking web app's origin. */
  needUser: z.boolean(),
  /**
   * True when the extension holds a working token for the asking origin. Needed beside needUser, which
   * is also false on a page of another server than the one set in the extension. Extensions built
   * before it omit it.
   */
  connected: z.boolean().optional(),
  extensionVersion: z.string(),
});
export type NeedUserReply = z.infer<typeof needUserReplySchema>;

export const setUserSignInSchema = z.object({
  ...base,
  action: z.literal('set-user'),
  authenticated: z.literal(true),
  user: handshakeUserSchema,
  /** Extension token from POST /v1/auth/extension-token. */
  mboxToken: z.string().min(1),
  /**
   * Where the extension sends transcripts. The extension accepts only the page's own origin here, and
   * only from the server set in its popup (docs/security.md, "Extension bridge and outbox").
   */
  serverOrigin: httpOriginSchema,
});

export const setUserSignOutSchema = z.object({
  ...base,
  action: z.literal('set-user'),
  authenticated: z.literal(false),
});

export const setUserRequestSchema = z.discriminatedUnion('authenticated', [setUserSignInSchema, setUserSignOutSchema]);
export type SetUserRequest = z.infer<typeof setUserRequestSchema>;

export const setUserAckSchema = z.object({
  ...base,
  action: z.literal('set-user-ack'),
  ok: z.boolean(),
  /** Why the extension refused the message (invalid fields, extension unavailable). */
  error: z.string().optional(),
});
export type SetUserAck = z.infer<typeof setUserAckSchema>;

/** What the web page may send. */
export const handshakeRequestSchema = z.union([needUserRequestSchema, setUserRequestSchema]);
export type HandshakeRequest = z.infer<typeof handshakeRequestSchema>;

/** What the extension answers. */
export const handshakeReplySchema = z.union([needUserReplySchema, setUserAckSchema]);
export type HandshakeReply = z.infer<typeof handshakeReplySchema>;
