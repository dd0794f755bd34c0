import { z } from 'zod';
import { emailListSchema, emailListTextSchema } from './email-list.js';
import { DEFAULT_TIME_ZONE, timeZoneSchema } from './days.js';
import { languageCodeSchema } from './prompts/languages.js';
import {
  DEFAULT_SUMMARY_MAX_LENGTH,
  DEFAULT_SUMMARY_MIN_LENGTH,
  OFFERED_SUMMARY_DEPTHS,
  summaryDepthSchema,
  summarySettingsSchema,
  type SummaryDepth,
} from './prompts/settings.js';

/** Upper bound of either summary length (words), so stored values stay meaningful and fit the column. */
export const SUMMARY_LENGTH_CEILING = 10_000;

const translateToSchema = z.union([languageCodeSchema, z.literal('')]);

/** GET /v1/user-settings (product.md, Data), plus the derived premium state and the user's time zone. */
export const userSettingsSchema = z.object({
  sendNoSummary: z.boolean(),
  sendSummary: z.boolean(),
  redirectEmails: z.string(),
  whiteEmailList: z.array(z.string()),
  onboardingComplete: z.boolean(),
  isPremium: z.boolean(),
  /** Epoch seconds; 0 when never premium. */
  premiumUntil: z.number().int(),
  /** isPremium and premiumUntil in the future (product.md, States). */
  premiumActive: z.boolean(),
  defaultSummaryDepth: summaryDepthSchema,
  defaultMaxSummaryLength: z.number().int(),
  defaultMinSummaryLength: z.number().int(),
  /** Language code, or empty for no translation. */
  defaultTranslateTo: translateToSchema,
  /** IANA zone used to group meetings by day and to count "this month". */
  timezone: z.string(),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

export const USER_SETTINGS_DEFAULTS: UserSettings = {
  sendNoSummary: false,
  sendSummary: true,
  redirectEmails: '',
  whiteEmailList: [],
  onboardingComplete: false,
  isPremium: false,
  premiumUntil: 0,
  premiumActive: false,
  defaultSummaryDepth: 'standard',
  defaultMaxSummaryLength: DEFAULT_SUMMARY_MAX_LENGTH,
  defaultMinSummaryLength: DEFAULT_SUMMARY_MIN_LENGTH,
  defaultTranslateTo: '',
  timezone: DEFAULT_TIME_ZONE,
};

/** Settings only premium users may change (product.md, Screens Summary tab, product.md, Roles). */
export const PREMIUM_SETTINGS_FIELDS = [
  'defaultSummaryDepth',
  'defaultMaxSummaryLength',
  'defaultMinSummaryLength',
  'defaultTranslateTo',
] as const;
export type PremiumSettingsField = (typeof PREMIUM_SETTINGS_FIELDS)[number];

const offeredDepths = OFFERED_SUMMARY_DEPTHS.map((d) => d.value) as [SummaryDepth, ...SummaryDepth[]];

// The length rules come from the summary settings schema, bounded above for storage.
const { minLength, maxLength } = summarySettingsSchema.shape;

// The REST facade (trpc-to-openapi) switches plain number and boolean input fields to coercion, in
// place, so "false" would read as true; behind a pipe they stay strict JSON types on both transports.
const strictBoolean = z.boolean().pipe(z.boolean());
const strictNumber = (schema: z.ZodNumber) => schema.pipe(z.number());

/**
 * PUT /v1/user-settings: any subset of the writable fields, each validated; unknown or read-only
 * fields (isPremium, premiumUntil, premiumActive) are refused.
 */
export const userSettingsUpdateSchema = z
  .strictObject({
    sendNoSummary: strictBoolean,
    sendSummary: strictBoolean,
    redirectEmails: emailListTextSchema,
    whiteEmailList: emailListSchema,
    onboardingComplete: strictBoolean,
    defaultSummaryDepth: z.enum(offeredDepths, {
      error: () => `Unknown depth: expected one of ${offeredDepths.join(', ')}`,
    }),
    defaultMaxSummaryLength: strictNumber(maxLength.unwrap().max(SUMMARY_LENGTH_CEILING)),
    defaultMinSummaryLength: strictNumber(minLength.unwrap().max(SUMMARY_LENGTH_CEILING)),
    defaultTranslateTo: translateToSchema,
    timezone: timeZoneSchema,
  })
  .partial();
export type UserSettingsUpdate = z.infer<typeof userSettingsUpdateSchema>;

function sameValue(a: unknown, b: unknown): boolean {
  return Array.isArray(a) && Array.isArray(b)
    ? a.length === b.length && a.every((item, i) => item === b[i])
    : a === b;
}

/** Only the fields of `next` that differ from `current`: what a save sends (nothing → save disabled). */
export function changedSettings(current: UserSettings, next: UserSettingsUpdate): UserSettingsUpdate {
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(next)) {
    if (value !== undefined && !sameValue(current[key as keyof UserSettings], value)) changes[key] = value;
  }
  return changes as UserSettingsUpdate;
}

/** Premium-only fields an update would change; non-empty means a non-premium user is refused. */
export function premiumFieldsChanged(current: UserSettings, update: UserSettingsUpdate): PremiumSettingsField[] {
  const changes = changedSettings(current, update);
  return PREMIUM_SETTINGS_FIELDS.filter((field) => changes[field] !== undefined);
}
