import {
  isPremiumActive,
  premiumFieldsChanged,
  summarySettingsSchema,
  toEpochSeconds,
  userSettingsSchema,
  type UserSettings,
  type UserSettingsUpdate,
} from '@mbox/shared';
import { AppError, invalidField } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';
import { forgetCredentials } from '../auth/credential-cache.js';
import type { Prisma, User } from '../../generated/prisma/client.js';
import { registerRecipients, settingsAddresses } from '../recap/recipients.js';

const settingsSelect = {
  sendNoSummary: true,
  sendSummary: true,
  redirectEmails: true,
  whiteEmailList: true,
  onboardingComplete: true,
  isPremium: true,
  premiumUntil: true,
  defaultSummaryDepth: true,
  defaultMaxSummaryLength: true,
  defaultMinSummaryLength: true,
  defaultTranslateTo: true,
  timezone: true,
} as const satisfies Prisma.UserSelect;

type SettingsRow = Pick<User, keyof typeof settingsSelect>;

function toUserSettings(row: SettingsRow, now = new Date()): UserSettings {
  // Parsed so a value stored before a rule existed surfaces here, not as a malformed answer.
  return userSettingsSchema.parse({
    ...row,
    premiumUntil: toEpochSeconds(row.premiumUntil),
    premiumActive: isPremiumActive(row, now),
  });
}

export async function getSettings(deps: AppDeps, userId: string): Promise<UserSettings> {
  return toUserSettings(await deps.db.user.findUniqueOrThrow({ where: { id: userId }, select: settingsSelect }));
}

/**
 * Merges the sent fields into the stored settings. Non-premium users may not change premium-only
 * fields (sending their current value is harmless, so clients may send the whole object); the
 * lengths must stay consistent once merged.
 */
export async function updateSettings(deps: AppDeps, userId: string, update: UserSettingsUpdate): Promise<UserSettings> {
  const saved = await deps.db.$transaction(async (tx) => {
    // Row lock: two concurrent saves must not each pass the length check against stale values.
    await tx.$queryRaw`SELECT 1 FROM "User" WHERE id = ${userId} FOR UPDATE`;
    const row = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { ...settingsSelect, email: true } });
    const current = toUserSettings(row);
    const premiumOnly = premiumFieldsChanged(current, update);
    if (premiumOnly.length > 0 && !current.premiumActive) {
      throw new AppError('FORBIDDEN', `Only premium users can change ${premiumOnly.join(', ')}: upgrade to premium to use summary settings`);
    }
    if (update.onboardingComplete === false && current.onboardingComplete) {
      // Onboarding is when a referral code may be accepted: reopening it must not open that again.
      throw invalidField('onboardingComplete', 'Onboarding is complete and cannot be started again: onboardingComplete only goes from false to true');
    }
    const minLength = update.defaultMinSummaryLength ?? current.defaultMinSummaryLength;
    const maxLength = update.defaultMaxSummaryLength ?? current.defaultMaxSummaryLength;
    const lengths = summarySettingsSchema.safeParse({ minLength, maxLength });
    if (!lengths.success) {
      const message = `The maximum summary length must be 0 (no limit) or at least the minimum (${minLength}); the maximum is ${maxLength}`;
      throw invalidField(update.defaultMaxSummaryLength === undefined ? 'defaultMinSummaryLength' : 'defaultMaxSummaryLength', message);
    }
    if (update.redirectEmails !== undefined || update.whiteEmailList !== undefined) {
      const addresses = settingsAddresses({
        redirectEmails: update.redirectEmails ?? current.redirectEmails,
        whiteEmailList: update.whiteEmailList ?? current.whiteEmailList,
      });
      // Other people's addresses receive nothing until they confirm (docs/recaps.md, "Recipients").
      await registerRecipients(deps, tx, { id: userId, email: row.email }, addresses);
    }
    return toUserSettings(await tx.user.update({ where: { id: userId }, data: update, select: settingsSelect }));
  });
  // The signed-in user each call sees carries the timezone: cached credentials must not keep the old one.
  if (update.timezone !== undefined) forgetCredentials(deps, { userId });
  return saved;
}

export async function completeOnboarding(deps: AppDeps, userId: string): Promise<UserSettings> {
  return toUserSettings(
    await deps.db.user.update({ where: { id: userId }, data: { onboardingComplete: true }, select: settingsSelect }),
  );
}
