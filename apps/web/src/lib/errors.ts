import { TRPCClientError } from '@trpc/client';
import type { ApiErrorData } from '@mbox/shared/errors';
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

/** The `data` of an API error the server answered (packages/shared errors.ts), or null when none arrived. */
function apiErrorData(error: unknown): Pick<ApiErrorData, 'httpStatus' | 'issues'> | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data: unknown = error.data;
  if (!data || typeof data !== 'object' || !('httpStatus' in data) || typeof data.httpStatus !== 'number') return null;
  return data as Pick<ApiErrorData, 'httpStatus' | 'issues'>;
}

/** HTTP status of a failed call, or null when no answer arrived (network failure) or it is no API error. */
export function httpStatusOf(error: unknown): number | null {
  if (error instanceof HttpStatusError) return error.httpStatus;
  // A TRPCClientError without data never reached the server (or got an unreadable answer).
  return apiErrorData(error)?.httpStatus ?? null;
}

/** Every 429 is the account's daily limit to the person (product.md, Errors); the server keeps its other limits off 429. */
export function isDailyLimit(error: unknown): boolean {
  return httpStatusOf(error) === 429;
}

/**
 * Why the server refused a call, for a screen that shows it in place (a form field, a dialog, an alert)
 * rather than as a toast: the server's own message, which names the problem (plan unknown, Stripe
 * unreachable, page too short, URL refused), and the input field it is about. Null for what is not a
 * refusal with a reason: no answer, a 401 (the session ends), a 500 (it says nothing to the person).
 */
export function refusalOf(error: unknown): { message: string; status: number; fieldMessage: string | null } | null {
  const data = apiErrorData(error);
  const message = serverMessage(error);
  if (!data || data.httpStatus < 400 || data.httpStatus === 401 || data.httpStatus === 500 || !message) return null;
  return { message, status: data.httpStatus, fieldMessage: (data.httpStatus === 400 && data.issues?.[0]?.message) || null };
}

/**
 * The server's reason for refusing a call when it gave one (refusalOf); otherwise the failure goes
 * through the one mapping (handleApiError: sign out, toast) and null is answered.
 */
export function refusalOrReport(error: unknown): string | null {
  const refusal = refusalOf(error);
  if (refusal) return refusal.message;
  handleApiError(error);
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
  if (isDailyLimit(error)) return { kind: 'toast', message: ERROR_TEXT.dailyLimit };
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
