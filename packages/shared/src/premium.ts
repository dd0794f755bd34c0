/** Epoch seconds of a premium end date as the API exposes it (spec §3: premiumUntil, 0 when none). */
export function toEpochSeconds(date: Date | null | undefined): number {
  return date ? Math.floor(date.getTime() / 1000) : 0;
}

/** Premium is active only if isPremium is set and premiumUntil lies in the future (spec §4). */
export function isPremiumActive(
  user: { isPremium: boolean; premiumUntil: number | Date | null },
  now: Date = new Date(),
): boolean {
  if (!user.isPremium || user.premiumUntil === null) return false;
  const untilMs = user.premiumUntil instanceof Date ? user.premiumUntil.getTime() : user.premiumUntil * 1000;
  return untilMs > now.getTime();
}
