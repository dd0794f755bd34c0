/** AI generations (summaries, questions, translations, line fixes) a user may run per day; null = unlimited. */
export const AI_DAILY_GENERATION_LIMITS = { basic: 10, premium: null } as const;

export function aiDailyGenerationLimit(isPremium: boolean): number | null {
  return isPremium ? AI_DAILY_GENERATION_LIMITS.premium : AI_DAILY_GENERATION_LIMITS.basic;
}
