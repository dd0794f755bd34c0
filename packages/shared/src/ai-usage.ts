import { z } from 'zod';

/** One daily allowance: what was used today, the limit and what is left (null: no limit applies). */
export const aiAllowanceSchema = z.object({
  used: z.number().int().min(0),
  limit: z.number().int().min(0).nullable(),
  left: z.number().int().min(0).nullable(),
});
export type AiAllowance = z.infer<typeof aiAllowanceSchema>;

/**
 * GET /v1/ai-usage: the signed-in account's AI use of the current UTC day (docs/ai.md, "Daily limits").
 * `generations` is the plan's daily number of AI generations; its limit is null when generations are
 * not limited (premium, or the offline engine when the server does not count it). `tokens` is the
 * LLM token budget (input + output); its limit is null when unlimited or when no LLM is configured.
 */
export const aiUsageSchema = z.object({
  /** The UTC day counted, yyyy-MM-dd: every account's counters start again at 00:00 UTC. */
  day: z.string(),
  /** When the counters start again, epoch ms. */
  resetsAt: z.number().int(),
  generations: aiAllowanceSchema,
  tokens: aiAllowanceSchema,
});
export type AiUsage = z.infer<typeof aiUsageSchema>;

/** "7 of 10 AI summaries left today", or null when the account's generations are not limited. */
export function aiGenerationsLeftText(usage: AiUsage): string | null {
  const { limit, left } = usage.generations;
  if (limit === null || left === null) return null;
  return `${left} of ${limit} AI ${limit === 1 ? 'summary' : 'summaries'} left today`;
}
