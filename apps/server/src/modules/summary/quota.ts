import { aiDailyGenerationLimit, isPremiumActive } from '@mbox/shared';
import type { ModelTier } from '../../ai/index.js';
import type { AppDeps } from '../../deps.js';
import { dailyLimit, takeDailyUseOrThrow } from '../../trpc/rate-limit.js';
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
export function takeAiGeneration(deps: AppDeps, user: AuthUser): Promise<() => Promise<void>> {
  return takeDailyUseOrThrow(deps.db, user.id, AI_GENERATION_KIND, generationLimit(user));
}
