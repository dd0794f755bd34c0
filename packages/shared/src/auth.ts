import { z } from 'zod';

export const AUTH_MODES = ['local', 'firebase'] as const;

/** The longest address of a local account (the login form's field says the same). */
export const LOCAL_EMAIL_MAX_LENGTH = 320;

/**
 * Local-mode sign-in (POST /v1/auth/login); an empty body signs in the default account. An address is
 * checked by the rule of the browser's e-mail field (WHATWG), so every address the login form accepts
 * signs in, single-label domains included: the default account is `me@localhost`, and a second local
 * account such as `newbie@localhost` is the obvious next one.
 */
export const loginInputSchema = z
  .strictObject({
    email: z
      .email({ pattern: z.regexes.html5Email, message: 'must be an e-mail address such as name@example.com or name@localhost' })
      .max(LOCAL_EMAIL_MAX_LENGTH)
      .optional(),
    name: z.string().trim().min(1).max(200).optional(),
  })
  .optional()
  .default({});

export const publicUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  avatarUrl: z.string(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** The documented custom-token response: a long-lived token for the extension. */
export const extensionTokenOutputSchema = z.object({ token: z.string() });

export const firebaseWebConfigSchema = z.object({
  apiKey: z.string(),
  authDomain: z.string(),
  projectId: z.string(),
  appId: z.string().optional(),
  /** Firebase Auth emulator origin, e.g. http://127.0.0.1:9099 (development and tests). */
  emulatorUrl: z.string().optional(),
});
export type FirebaseWebConfig = z.infer<typeof firebaseWebConfigSchema>;

/** The deployment's own pages the web app links to (server settings SUPPORT_URL, FEEDBACK_URL); null when not set. */
export const deploymentLinksSchema = z.object({
  support: z.string().nullable(),
  feedback: z.string().nullable(),
});
export type DeploymentLinks = z.infer<typeof deploymentLinksSchema>;

export const authConfigSchema = z.object({
  mode: z.enum(AUTH_MODES),
  firebase: firebaseWebConfigSchema.nullable(),
  links: deploymentLinksSchema,
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

/** Prefix of extension tokens; tells them apart from session tokens at a glance. */
export const EXTENSION_TOKEN_PREFIX = 'mbx_';

/**
 * What `POST /v1/auth/login` and `POST /v1/auth/refresh` answer API clients (scripts, the REST facade):
 * `token` is a short-lived access token (bearer), `refreshToken` gets the next pair before `expiresAt`.
 */
export const apiSessionSchema = z.object({
  token: z.string(),
  /** Epoch ms when `token` stops working. */
  expiresAt: z.number(),
  refreshToken: z.string(),
});
export type ApiSession = z.infer<typeof apiSessionSchema>;

export const loginOutputSchema = apiSessionSchema.extend({ user: publicUserSchema });
export type LoginOutput = z.infer<typeof loginOutputSchema>;

/** The web app's sign-in: the tokens travel in httpOnly cookies, the answer only names the user. */
export const webSignInOutputSchema = z.object({ user: publicUserSchema });

/** Firebase mode: the web app trades a verified Firebase ID token for a session (cookies). */
export const firebaseSignInInputSchema = z.strictObject({ idToken: z.string().min(1).max(8192) });

/** An API client names its refresh token; the web app sends none (its refresh token is a cookie). */
export const refreshInputSchema = z
  .strictObject({ refreshToken: z.string().min(1).max(200).optional() })
  .optional()
  .default({});

/** Refresh over cookies answers only the new expiry; over the body it answers the new pair. */
export const refreshOutputSchema = z.object({
  expiresAt: z.number(),
  token: z.string().optional(),
  refreshToken: z.string().optional(),
});

/** One signed-in browser or API client (a Session row), as the account screen lists it. */
export const sessionInfoSchema = z.object({
  id: z.string(),
  userAgent: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number(),
  expiresAt: z.number(),
  /** The session this call was made with ("This browser"). */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
export const sessionListSchema = z.object({ sessions: z.array(sessionInfoSchema) });

/** A connected extension: an extension token that is neither revoked nor expired. */
export const extensionTokenInfoSchema = z.object({
  id: z.string(),
  label: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
  expiresAt: z.number(),
});
export type ExtensionTokenInfo = z.infer<typeof extensionTokenInfoSchema>;
export const extensionTokenListSchema = z.object({ tokens: z.array(extensionTokenInfoSchema) });

export const revokeByIdInputSchema = z.strictObject({ id: z.string().min(1).max(100) });

export const logoutEverywhereInputSchema = z
  .strictObject({
    /** Also disconnect every extension (default): "everywhere" includes the browsers it captures in. */
    extensionTokens: z.boolean().default(true),
  })
  .optional()
  .default({ extensionTokens: true });

export const logoutEverywhereOutputSchema = z.object({ sessions: z.number().int(), extensionTokens: z.number().int() });

export * from './auth-cookies.js';
