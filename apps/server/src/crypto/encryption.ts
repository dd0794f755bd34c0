import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client.js';
import type { AppDeps } from '../deps.js';

/**
 * Encryption at rest of message texts (docs/encryption.md). Each user has a random 256-bit data key,
 * stored only wrapped (AES-256-GCM) by the server master key; texts are sealed with the data key.
 * Every sealed value is bound to a context (its owner or meeting) so a ciphertext copied to another
 * row does not decrypt.
 */

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
/** Format version of stored texts and wrapped keys, so the format can change without guessing. */
const TEXT_PREFIX = 'enc1:';
const WRAP_VERSION = 1;

type DbClient = AppDeps['db'] | Prisma.TransactionClient;

export class DecryptionError extends Error {
  override name = 'DecryptionError';
}

function seal(key: Buffer, plaintext: Buffer, context: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv).setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function open(key: Buffer, sealed: Buffer, context: string): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new DecryptionError('Ciphertext too short');
  const decipher = createDecipheriv(ALGORITHM, key, sealed.subarray(0, IV_BYTES))
    .setAAD(Buffer.from(context, 'utf8'))
    .setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new DecryptionError('Ciphertext does not match its key or context');
  }
}

const wrapContext = (userId: string) => `mbox:data-key:${userId}`;
/** Context of message texts (text and aiFixed) of one meeting. */
export const messageContext = (meetingId: string) => `mbox:message:${meetingId}`;
/** Context of summary texts and translations of one meeting. */
export const summaryContext = (meetingId: string) => `mbox:summary:${meetingId}`;

/** Context of a recap e-mail's HTML and text (of one meeting). */
export const recapContext = (meetingId: string) => `mbox:recap:${meetingId}`;
/** Context of server-held secrets sealed directly with the master key (a webhook's signing secret). */
const webhookSecretContext = (userId: string) => `mbox:webhook-secret:${userId}`;

/** Bytes as the database column takes them. */
export function wrapDataKey(masterKey: Buffer, dataKey: Buffer, userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.concat([Buffer.of(WRAP_VERSION), seal(masterKey, dataKey, wrapContext(userId))]));
}

export function unwrapDataKey(masterKey: Buffer, wrapped: Uint8Array, userId: string): Buffer {
  const bytes = Buffer.from(wrapped);
  if (bytes[0] !== WRAP_VERSION) throw new DecryptionError('Unknown wrapped key format');
  const key = open(masterKey, bytes.subarray(1), wrapContext(userId));
  if (key.length !== KEY_BYTES) throw new DecryptionError('Wrapped key has the wrong length');
  return key;
}

export function encryptText(key: Buffer, text: string, context: string): string {
  return TEXT_PREFIX + seal(key, Buffer.from(text, 'utf8'), context).toString('base64');
}

export function decryptText(key: Buffer, stored: string, context: string): string {
  if (!stored.startsWith(TEXT_PREFIX)) throw new DecryptionError('Not an encrypted text');
  return open(key, Buffer.from(stored.slice(TEXT_PREFIX.length), 'base64'), context).toString('utf8');
}

export function isEncryptedText(stored: string): boolean {
  return stored.startsWith(TEXT_PREFIX);
}

/** A webhook's signing secret as stored: sealed with the master key, bound to its owner. */
export function sealWebhookSecret(masterKey: Buffer, userId: string, secret: string): string {
  return encryptText(masterKey, secret, webhookSecretContext(userId));
}

/** A stored webhook secret in plain form; one stored before secrets were sealed is plain already. */
export function openWebhookSecret(masterKey: Buffer, userId: string, stored: string): string {
  return isEncryptedText(stored) ? decryptText(masterKey, stored, webhookSecretContext(userId)) : stored;
}

/** The stored form of a recap's HTML and text, for a recap of an encrypted meeting. */
export function sealRecapTexts(key: Buffer, meetingId: string, recap: { html: string; text: string }): { html: string; text: string } {
  const context = recapContext(meetingId);
  return { html: encryptText(key, recap.html, context), text: encryptText(key, recap.text, context) };
}

/** A recap's HTML and text in plain form (sealed ones opened with the owner's data key). */
export async function openRecapTexts(
  db: DbClient,
  masterKey: Buffer,
  recap: { userId: string; meetingId: string; encrypted: boolean; html: string; text: string },
): Promise<{ html: string; text: string }> {
  if (!recap.encrypted) return { html: recap.html, text: recap.text };
  const key = await loadDataKey(db, masterKey, recap.userId);
  if (!key) throw new DecryptionError('No data key');
  const context = recapContext(recap.meetingId);
  return { html: decryptText(key, recap.html, context), text: decryptText(key, recap.text, context) };
}

/** The user's data key, or null when they never encrypted anything. */
export async function loadDataKey(db: DbClient, masterKey: Buffer, userId: string): Promise<Buffer | null> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { wrappedDataKey: true } });
  return user?.wrappedDataKey ? unwrapDataKey(masterKey, user.wrappedDataKey, userId) : null;
}

/**
 * The user's data key, created on first use. Run it inside the transaction that stores the first
 * ciphertext, so a rolled-back write never leaves a key behind nor a text sealed by a lost key.
 */
export async function ensureDataKey(db: DbClient, masterKey: Buffer, userId: string): Promise<Buffer> {
  const existing = await loadDataKey(db, masterKey, userId);
  if (existing) return existing;
  const key = randomBytes(KEY_BYTES);
  // Only fills an empty slot: of two concurrent first uses, the second one re-reads the winner's key.
  const { count } = await db.user.updateMany({
    where: { id: userId, wrappedDataKey: null },
    data: { wrappedDataKey: wrapDataKey(masterKey, key, userId) },
  });
  if (count) return key;
  const winner = await loadDataKey(db, masterKey, userId);
  if (!winner) throw new Error(`User ${userId} has no data key slot`);
  return winner;
}

/** The stored form of a message's texts. */
export function sealMessageTexts(
  key: Buffer,
  meetingId: string,
  texts: { text: string; aiFixed: string | null },
): { text: string; aiFixed: string | null } {
  const context = messageContext(meetingId);
  return {
    text: encryptText(key, texts.text, context),
    aiFixed: texts.aiFixed === null ? null : encryptText(key, texts.aiFixed, context),
  };
}

/**
 * The stored form of a summary's texts: its HTML and every translation (a JSON map of language code
 * to `{ text }`; entries of another shape are kept as they are, the reader skips them).
 */
export function sealSummaryTexts(
  key: Buffer,
  meetingId: string,
  summary: { text: string; translations: Prisma.JsonValue },
): { text: string; translations: Prisma.InputJsonObject } {
  const context = summaryContext(meetingId);
  const translations: Record<string, Prisma.InputJsonValue | null> = {};
  const stored = summary.translations;
  if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
    for (const [code, value] of Object.entries(stored)) {
      const isEntry = value && typeof value === 'object' && !Array.isArray(value) && typeof value.text === 'string';
      translations[code] = isEntry ? { ...value, text: encryptText(key, value.text as string, context) } : (value ?? null);
    }
  }
  return { text: encryptText(key, summary.text, context), translations };
}

interface StoredMessage {
  meetingId: string;
  text: string;
  aiFixed: string | null;
  encrypted: boolean;
}

/** Shown instead of a text that cannot be decrypted (e.g. the master key was replaced). */
export const UNREADABLE_TEXT = '[encrypted text cannot be decrypted with this server key]';

/**
 * Messages of one user with their texts in plain form, for the owner's eyes and the AI features.
 * Loads the data key only when some message is encrypted.
 */
export async function openMessages<T extends StoredMessage>(deps: AppDeps, userId: string, messages: T[]): Promise<T[]> {
  if (!messages.some((m) => m.encrypted)) return messages;
  let key: Buffer | null = null;
  try {
    key = await loadDataKey(deps.db, deps.secrets.masterKey, userId);
  } catch (error) {
    deps.log.error({ err: error, userId }, 'data key cannot be unwrapped');
  }
  return messages.map((message) => {
    if (!message.encrypted) return message;
    try {
      if (!key) throw new DecryptionError('No data key');
      const context = messageContext(message.meetingId);
      return {
        ...message,
        text: decryptText(key, message.text, context),
        aiFixed: message.aiFixed === null ? null : decryptText(key, message.aiFixed, context),
      };
    } catch (error) {
      deps.log.error({ err: error, userId, meetingId: message.meetingId }, 'message cannot be decrypted');
      return { ...message, text: UNREADABLE_TEXT, aiFixed: null };
    }
  });
}
