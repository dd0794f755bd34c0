import { z } from 'zod';

export const AUTH_MODES = ['local', 'firebase'] as const;

/** Local-mode sign-in (DESIGN.md: POST /v1/auth/login); an empty body signs in the default account. */
export const loginInputSchema = z
  .strictObject({
    email: z.email('must be an e-mail address').max(320).optional(),
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

export const loginOutputSchema = z.object({ token: z.string(), user: publicUserSchema });

/** The spec's custom-token response: a long-lived token for the extension. */
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

export const authConfigSchema = z.object({
  mode: z.enum(AUTH_MODES),
  firebase: firebaseWebConfigSchema.nullable(),
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

/** Prefix of extension tokens; tells them apart from session tokens at a glance. */
export const EXTENSION_TOKEN_PREFIX = 'mbx_';
