import { z } from 'zod';

/** name@domain with a 2 to 6 letter ending (product.md, Validation). */
const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,6}$/;
/** RFC 5321's limit on a whole address; longer strings are never valid. */
export const EMAIL_MAX_LENGTH = 254;
/** Bound on stored lists, so one settings write cannot grow without limit. */
export const EMAIL_LIST_MAX_ENTRIES = 100;

export function isValidEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
}

/** Splits typed text on commas or whitespace (product.md, Validation); valid entries become chips, in order, once each. */
export function parseEmailList(text: string): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const entry of text.split(/[\s,]+/)) {
    if (!entry) continue;
    const bucket = isValidEmail(entry) ? valid : invalid;
    if (!bucket.includes(entry)) bucket.push(entry);
  }
  return { valid, invalid };
}

export const emailSchema = z
  .string()
  .trim()
  .refine(isValidEmail, {
    error: (issue) => `Invalid e-mail address: ${String(issue.input).slice(0, 100)} (expected name@domain.tld)`,
  });

/** A list of addresses (whiteEmailList): each valid, duplicates dropped. */
export const emailListSchema = z
  .array(emailSchema)
  .max(EMAIL_LIST_MAX_ENTRIES, { message: `At most ${EMAIL_LIST_MAX_ENTRIES} addresses` })
  .transform((list) => [...new Set(list)]);

/** Addresses typed as text (redirectEmails): every entry must be valid; empty means none. */
export const emailListTextSchema = z
  .string()
  .max(EMAIL_LIST_MAX_ENTRIES * (EMAIL_MAX_LENGTH + 1), { message: 'Too long' })
  .superRefine((text, ctx) => {
    const { valid, invalid } = parseEmailList(text);
    if (invalid.length > 0) {
      // Names every invalid entry (a few at most), so the user sees all there is to fix.
      const named = invalid.slice(0, 5).map((entry) => entry.slice(0, 100));
      const more = invalid.length > named.length ? ` and ${invalid.length - named.length} more` : '';
      ctx.addIssue({ code: 'custom', message: `Invalid e-mail address${invalid.length > 1 ? 'es' : ''}: ${named.join(', ')}${more}` });
    } else if (valid.length > EMAIL_LIST_MAX_ENTRIES) {
      ctx.addIssue({ code: 'custom', message: `At most ${EMAIL_LIST_MAX_ENTRIES} addresses` });
    }
  })
  .transform((text) => parseEmailList(text).valid.join(', '));
