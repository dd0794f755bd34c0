import { TRPCError } from '@trpc/server';
import { DAILY_LIMIT_REACHED, aiDailyGenerationLimit, isPremiumActive } from '@mbox/shared';
import type { ModelTier } from '../../ai/index.js';
import type { AppDeps } from '../../deps.js';
import { dailyLimit, returnDailyUse, takeDailyUse, usageDay } from '../../trpc/rate-limit.js';
import type { AuthUser } from '../auth/service.js';

/** One daily counter for every AI generation: summaries, questions, regenerations, translations. */
export const AI_GENERATION_KIND = 'ai-generation';

/** Basic users get the basic model, premium users the advanced one. */
export function modelTier(user: AuthUser): ModelTier {
  return isPremiumActive(user) ? 'advanced' : 'basic';
}

function generationLimit(user: AuthUser | null): number | null {
  return aiDailyGenerationLimit(user !== null && isPremiumActive(user));
}

/** Counts one generation per call of a procedure; failed calls give it back. */
export const aiGenerationQuota = dailyLimit(AI_GENERATION_KIND, generationLimit);

/**
 * Takes one generation for work whose outcome the middleware cannot see (a stream that fails after
 * it started, a translation that turns out to be stored already). Returns the give-back.
 */
export async function takeAiGeneration(deps: AppDeps, user: AuthUser): Promise<() => Promise<void>> {
  const limit = generationLimit(user);
  if (limit === null) return async () => {};
  const day = usageDay();
  if (!(await takeDailyUse(deps.db, user.id, AI_GENERATION_KIND, limit, day))) {
    throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: DAILY_LIMIT_REACHED });
  }
  return () => returnDailyUse(deps.db, user.id, AI_GENERATION_KIND, day);
}
