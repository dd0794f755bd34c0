/** User-visible texts of product.md, Errors and the timings of product.md, Limits, so the web app and server say the same. */

/** Toast for a failed call (status 400 or above, or network failure). */
export const ERROR_TOAST = 'Error occur. Try again later.';
/** Toast area default and public layout fallback. */
export const DEFAULT_ERROR_MESSAGE = 'Some error occur. Try again later';
/** Empty result from a custom prompt, a translation or a summary update. */
export const EMPTY_RESULT_ERROR = 'Error occur. Try again later or contact support.';
/** 429 toast, and the error of a YouTube summary over its daily limit. */
export const DAILY_LIMIT_REACHED = 'Daily limit reached';
export const SETTINGS_UPDATED = 'Settings updated';
export const SUBSCRIPTION_CANCELLED = 'Subscription cancelled';
export const CHANGELOG_ERROR = 'Error: try again later';
export const REFERRAL_SUCCESS = 'You have successfully accepted the referral, enjoy your premium features!';
export const PAYMENT_FAILED =
  'We were unable to process your payment. Please try again or contact support if the issue persists.';

export const TOAST_DURATION_MS = 5000;
export const SUCCESS_TOAST_DURATION_MS = 5000;
export const REFERRAL_SUCCESS_DURATION_MS = 10_000;
/** Retries of a non-premium call after a 401, each after a token refresh. */
export const AUTH_RETRY_LIMIT = 2;
/** The assistant question's Ask button stays disabled below this many characters. */
export const MIN_QUESTION_LENGTH = 6;

/** The login button: the documented text when it opens Google sign-in (Firebase mode)… */
export const LOGIN_WITH_GOOGLE = 'Login with Google';
/** …and what it does in local mode: signs in to a passwordless local account on this server. */
export const LOGIN_LOCAL = 'Continue with local account';
