import { TRPCClientError } from '@trpc/client';
import { DAILY_LIMIT_REACHED, DEFAULT_ERROR_MESSAGE, EMPTY_RESULT_ERROR, ERROR_TOAST } from '@mbox/shared/ui-messages';
import { toast } from './toast';

/** UI texts of product.md, Errors. */
export const ERROR_TEXT = {
  default: DEFAULT_ERROR_MESSAGE,
  request: ERROR_TOAST,
  dailyLimit: DAILY_LIMIT_REACHED,
  emptyResult: EMPTY_RESULT_ERROR,
} as const;

export type ErrorOutcome = { kind: 'logout' } | { kind: 'toast'; message: string };

/** A call made outside tRPC (a file download) that the server answered with an error status. */
export class HttpStatusError extends Error {
  override name = 'HttpStatusError';
  constructor(readonly httpStatus: number) {
    super(`HTTP ${httpStatus}`);
  }
}

/** HTTP status of a failed call, or null when no answer arrived (network failure) or it is no API error. */
export function httpStatusOf(error: unknown): number | null {
  if (error instanceof HttpStatusError) return error.httpStatus;
  if (error instanceof TRPCClientError) {
    const data: unknown = error.data;
    if (data && typeof data === 'object' && 'httpStatus' in data && typeof data.httpStatus === 'number') {
      return data.httpStatus;
    }
    // A TRPCClientError without data never reached the server (or got an unreadable answer).
    return null;
  }
  return null;
}

/** The server's own message of an API error, when it sent one. */
function serverMessage(error: unknown): string {
  return error instanceof TRPCClientError ? error.message.trim() : '';
}

/**
 * The single mapping of a failed call to what the user sees (product.md, Errors):
 * - 401 logs out; 429 is 'Daily limit reached';
 * - an AI answer that came back empty (the server's 502 with the documented text) says so, with 'or contact support';
 * - a refusal with a reason (4xx: a feature that needs an AI model, a meeting too small, a premium
 *   feature, a missing meeting, invalid input) shows the server's reason, which says what to do;
 * - anything else that failed (5xx, network) is 'Error occur. Try again later.'
 */
export function classifyError(error: unknown): ErrorOutcome {
  const status = httpStatusOf(error);
  if (status === 401) return { kind: 'logout' };
  if (status === 429) return { kind: 'toast', message: ERROR_TEXT.dailyLimit };
  const message = serverMessage(error);
  if (status !== null && status >= 400 && message === ERROR_TEXT.emptyResult) return { kind: 'toast', message: ERROR_TEXT.emptyResult };
  if (status !== null && status >= 400 && status < 500 && message) return { kind: 'toast', message };
  if (status !== null && status >= 400) return { kind: 'toast', message: ERROR_TEXT.request };
  if (error instanceof TRPCClientError) return { kind: 'toast', message: ERROR_TEXT.request };
  if (error instanceof TypeError) return { kind: 'toast', message: ERROR_TEXT.request };
  return { kind: 'toast', message: ERROR_TEXT.default };
}

/** Firebase's sign-in errors a person causes, said in their words (the SDK's own codes). */
const FIREBASE_SIGN_IN_ERRORS: Record<string, string> = {
  'auth/popup-closed-by-user': 'Sign-in cancelled: the Google window was closed before signing in.',
  'auth/cancelled-popup-request': 'Sign-in cancelled: another sign-in window was opened.',
  'auth/popup-blocked': 'The browser blocked the Google sign-in window: allow pop-ups for this site and try again.',
  'auth/network-request-failed': 'Google could not be reached: check the connection and try again.',
  'auth/unauthorized-domain': 'Google sign-in is not set up for this address: ask the administrator to add it to Firebase.',
};

function firebaseErrorCode(error: unknown): string | null {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') return null;
  return error.code.startsWith('auth/') ? error.code : null;
}

/**
 * Why a sign-in failed, for the login card: the server's reason for a refusal (any 4xx: local sign-in
 * from another machine, an invalid address, a rejected Google account), Firebase's popup outcomes in
 * words, and the general texts of classifyError for the rest.
 */
export function signInFailureMessage(error: unknown): string {
  const code = firebaseErrorCode(error);
  if (code) return FIREBASE_SIGN_IN_ERRORS[code] ?? `Google sign-in failed (${code}). Try again.`;
  const status = httpStatusOf(error);
  const message = serverMessage(error);
  if (status !== null && status >= 400 && status < 500 && message) return message;
  const outcome = classifyError(error);
  return outcome.kind === 'toast' ? outcome.message : ERROR_TEXT.request;
}

let onUnauthorized: () => void = () => {};
/** The session registers its logout here so the error handler can reach it without a cycle. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

/** Shows the outcome of a failed call; `silent` calls (product.md, Errors: suppressible per call) only log. */
export function handleApiError(error: unknown, options: { silent?: boolean } = {}): void {
  const outcome = classifyError(error);
  if (outcome.kind === 'logout') {
    onUnauthorized();
    return;
  }
  console.warn('[mbox] call failed', error);
  if (!options.silent) toast.error(outcome.message);
}

/** product.md, Errors: a custom prompt, translation or summary update that answered with nothing. */
export function reportEmptyResult(): void {
  console.warn('[mbox] call answered with an empty result');
  toast.error(ERROR_TEXT.emptyResult);
}
