import { z } from 'zod';

/**
 * Input hygiene shared by every call (docs/security.md): text PostgreSQL cannot store is normalised,
 * timestamps outside a sane window are refused.
 */

/** String.prototype.toWellFormed (ES2024: Node 20, Chrome 111); the packages compile against the ES2023 lib. */
const toWellFormed = (text: string): string => (text as string & { toWellFormed(): string }).toWellFormed();

/**
 * Text as PostgreSQL can store it: NUL removed (text and jsonb refuse it, SQLSTATE 22021/22P05) and lone
 * UTF-16 surrogates replaced with U+FFFD (jsonb refuses their escapes). Everything else is kept, so a
 * caption with a stray control character is stored rather than dropped.
 */
export function normalizeText(text: string): string {
  return toWellFormed(text.includes('\0') ? text.replaceAll('\0', '') : text);
}

/** normalizeText applied to every string of a JSON-like value: strings, array items, object keys and values. */
export function normalizeStrings(value: unknown): unknown {
  if (typeof value === 'string') return normalizeText(value);
  if (Array.isArray(value)) return value.map(normalizeStrings);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [normalizeText(key), normalizeStrings(item)]));
  }
  return value;
}

/** Earliest time a client may report: nothing this product records happened before 2000. */
export const EARLIEST_TIMESTAMP = Date.UTC(2000, 0, 1);
/** How far ahead of the server's clock a client's clock may run. */
export const CLOCK_SKEW_ALLOWANCE_MS = 24 * 60 * 60 * 1000;

/**
 * A moment a client reports (epoch ms): from 2000-01-01 to one day after now. Unbounded times once stored
 * meetings in year 10000+, which JavaScript dates then read back as invalid.
 */
export const timestampSchema = z
  .number()
  .int()
  .min(EARLIEST_TIMESTAMP, 'must be a time in ms since 1970, not before 2000-01-01')
  .refine((ms) => ms <= Date.now() + CLOCK_SKEW_ALLOWANCE_MS, 'must not be more than one day in the future');

/**
 * Longest request URL the clients build: the web app's batched tRPC GETs split to stay under it, and the
 * server takes path parameters (the batch's procedure list) up to it. Below proxies' usual 8 KB limit.
 */
export const MAX_REQUEST_URL_LENGTH = 4000;
