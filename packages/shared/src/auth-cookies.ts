// No zod here: the web app imports these names before zod is configured (schema-jit).

/** Cookie names of the web app's session; only the CSRF cookie is readable by page scripts. */
export const ACCESS_COOKIE = 'mbox_access';
export const REFRESH_COOKIE = 'mbox_refresh';
export const CSRF_COOKIE = 'mbox_csrf';
/** Header that echoes the CSRF cookie on cookie-authenticated state-changing calls (double submit). */
export const CSRF_HEADER = 'x-csrf-token';
/** Where the refresh cookie is sent: only to the refresh call. */
export const REFRESH_PATH = '/v1/auth/refresh';
