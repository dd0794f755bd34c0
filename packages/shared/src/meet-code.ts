/**
 * Meet's meeting code, as in https://meet.google.com/abc-defg-hij. A module of its own without zod, so
 * the extension's content script (on every Meet page, budget 60 kB gzip) can import it alone.
 */
export const MEET_CODE_PATTERN = /^[a-z]{3}-[a-z]{4}-[a-z]{3}$/;
