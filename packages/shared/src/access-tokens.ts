import { z } from 'zod';

/**
 * Prefix of personal access tokens: tells them apart from extension tokens (`mbx_`) and session
 * tokens at a glance, and lets secret scanners recognise a leaked one.
 */
export const PERSONAL_TOKEN_PREFIX = 'mbox_pat_';

/** Longest token name: a label such as "Claude Desktop on my laptop". */
export const PERSONAL_TOKEN_NAME_MAX_LENGTH = 100;

/** Live (unrevoked) personal access tokens an account may hold at once. */
export const MAX_PERSONAL_TOKENS = 50;

/**
 * What a personal access token may do: `read` calls only queries (and the MCP tools that read);
 * `write` also calls mutations (changes, deletions, summaries generated and stored).
 */
export const PERSONAL_TOKEN_SCOPES = ['read', 'write'] as const;
export const personalTokenScopeSchema = z.enum(PERSONAL_TOKEN_SCOPES);
export type PersonalTokenScope = z.infer<typeof personalTokenScopeSchema>;

/** POST /v1/access-tokens: a named token of one scope. */
export const personalTokenCreateInputSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'name must not be empty')
    .max(PERSONAL_TOKEN_NAME_MAX_LENGTH, `name must be at most ${PERSONAL_TOKEN_NAME_MAX_LENGTH} characters`),
  scope: personalTokenScopeSchema,
});
export type PersonalTokenCreateInput = z.infer<typeof personalTokenCreateInputSchema>;

/** A token as listed: never its secret, which only the creating call answers. */
export const personalTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: personalTokenScopeSchema,
  /** Epoch ms. */
  createdAt: z.number(),
  /** Epoch ms of the last call made with it (recorded at most once a minute); null when never used. */
  lastUsedAt: z.number().nullable(),
});
export type PersonalToken = z.infer<typeof personalTokenSchema>;

export const personalTokenListSchema = z.object({ tokens: z.array(personalTokenSchema) });
export type PersonalTokenList = z.infer<typeof personalTokenListSchema>;

/** The creating call's answer: `token` is the secret, shown this once (only its hash is stored). */
export const personalTokenCreatedSchema = z.object({ token: z.string(), accessToken: personalTokenSchema });
export type PersonalTokenCreated = z.infer<typeof personalTokenCreatedSchema>;
