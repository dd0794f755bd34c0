import { SUMMARIZER_DAILY_LIMIT, aiDailyGenerationLimit, isPremiumActive, type AiAllowance, type AiUsage } from '@mbox/shared';
import type { ModelTier, TokenUsage } from '../../ai/index.js';
import { AppError } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';
import { returnDailyUse, takeDailyUse, usageDay } from '../../trpc/rate-limit.js';
import type { AuthUser } from '../auth/service.js';

/**
 * The one metering point of AI generations (docs/ai.md, "Daily limits"). Every generation a signed-in
 * account asks for — summaries, questions, regenerations, recap summaries, translations, Ask answers,
 * line fixes, summarizer tools — runs inside meterGeneration, which takes the day's allowance before the
 * work starts and settles it after: kept once the result is stored (or handed over), given back when
 * nothing was.
 */

/** Daily counter of meeting AI generations (summaries, questions, translations, Ask, line fixes). */
export const AI_GENERATION_KIND = 'ai-generation';
/** Daily counter of the summarizer tools (text, link, YouTube): their own 10 a day. */
export const SUMMARIZER_KIND = 'summarizer';
/** Daily LLM tokens (input + output) of an account, across every generation. */
export const AI_TOKENS_KIND = 'ai-tokens';

/** DailyUsage.count is a 32-bit integer: "unlimited" is counted under its ceiling. */
const COUNT_CEILING = 2_147_483_647;
/** Tokens an answer is assumed to take until the LLM reports what it took. */
const ANSWER_TOKENS_ESTIMATE = 1024;

/** Which engine answers: LLM generations always count; offline ones only when AI_COUNT_OFFLINE is set. */
export type GenerationEngine = 'llm' | 'offline';

/**
 * The counter a generation's use goes to: the meeting AI's, or the summarizer tools'; `none` for work
 * the server does on its own for an ended meeting (its action items): only its LLM tokens count.
 */
export type UseCounter = 'meeting' | 'summarizer' | 'none';

export interface GenerationRequest {
  engine: GenerationEngine;
  /**
   * Input + output tokens an LLM generation is expected to take: held from the day's budget while it
   * runs (so concurrent generations cannot overspend it), then replaced by the usage the LLM reports.
   */
  estimatedTokens?: number;
  /** Default 'meeting'. */
  counter?: UseCounter;
}

/** What a metered generation reports while it runs. */
export interface GenerationMeter {
  /** Adds the token usage the LLM reported for one of its requests. */
  addUsage(usage: TokenUsage): void;
  /** The result is stored: from here on the use is kept, even if a later step fails. */
  stored(): void;
}

/** Basic users get the basic model, premium users the advanced one. */
export function modelTier(user: AuthUser): ModelTier {
  return isPremiumActive(user) ? 'advanced' : 'basic';
}

/** The engine the server answers with: the configured LLM, else the offline engine. */
export function serverEngine(deps: AppDeps): GenerationEngine {
  return deps.ai.isLlmConfigured ? 'llm' : 'offline';
}

/** Tokens of `chars` characters of input (about four characters a token) plus an answer. */
export function estimateTokens(chars: number, answerTokens = ANSWER_TOKENS_ESTIMATE): number {
  return Math.ceil(chars / 4) + answerTokens;
}

function useLimit(counter: UseCounter, premium: boolean): number | null {
  if (counter === 'summarizer') return premium ? null : SUMMARIZER_DAILY_LIMIT;
  return aiDailyGenerationLimit(premium);
}

/** The account's daily LLM token budget; null = unlimited (configured as 0). */
function tokenBudget(deps: AppDeps, premium: boolean): number | null {
  const budget = premium ? deps.config.AI_DAILY_TOKENS_PREMIUM : deps.config.AI_DAILY_TOKENS_FREE;
  return budget > 0 ? budget : null;
}

function countsUse(deps: AppDeps, engine: GenerationEngine): boolean {
  return engine === 'llm' || deps.config.AI_COUNT_OFFLINE;
}

function dailyLimitReached(): AppError {
  return new AppError('DAILY_LIMIT_REACHED');
}

/** What a running generation holds of the day's allowance. */
interface Hold {
  subject: string;
  day: string;
  /** The counter of the use taken, or null when none was (an uncounted offline generation). */
  useKind: string | null;
  /** Tokens held from the budget (0 for offline generations). */
  tokens: number;
}

/**
 * Takes one use and the estimated tokens, both or neither, or answers 429 'Daily limit reached'. In
 * one transaction of conditional increments: concurrent generations queue on the counters' rows and
 * each sees what the others took. Tokens are held only while they fit in what is left of the budget;
 * a generation estimated above the whole budget holds all of it, so it runs only as the day's first.
 */
async function take(deps: AppDeps, user: AuthUser, request: GenerationRequest): Promise<Hold> {
  const premium = isPremiumActive(user);
  const counter = request.counter ?? 'meeting';
  const useKind =
    counter === 'none' || !countsUse(deps, request.engine) ? null : counter === 'summarizer' ? SUMMARIZER_KIND : AI_GENERATION_KIND;
  const budget = tokenBudget(deps, premium) ?? COUNT_CEILING;
  const tokens = request.engine === 'llm' ? Math.min(budget, Math.max(1, Math.ceil(request.estimatedTokens ?? ANSWER_TOKENS_ESTIMATE))) : 0;
  const hold: Hold = { subject: user.id, day: usageDay(), useKind, tokens };
  if (!useKind && tokens === 0) return hold;
  await deps.db.$transaction(async (tx) => {
    if (useKind && !(await takeDailyUse(tx, hold.subject, useKind, useLimit(counter, premium) ?? COUNT_CEILING, hold.day))) {
      throw dailyLimitReached();
    }
    // Thrown inside the transaction, so the use taken above is rolled back with it.
    if (tokens > 0 && !(await takeDailyUse(tx, hold.subject, AI_TOKENS_KIND, budget, hold.day, tokens))) throw dailyLimitReached();
  });
  return hold;
}

/** Adds `delta` (negative to give back) to a counter, staying within 0 and the column's ceiling. */
async function adjust(deps: AppDeps, subject: string, day: string, kind: string, delta: number): Promise<void> {
  await deps.db.$executeRaw`
    UPDATE "DailyUsage" SET "count" = GREATEST(0, LEAST(${COUNT_CEILING}, "count"::bigint + ${delta}))::int
    WHERE "subject" = ${subject} AND "day" = ${day} AND "kind" = ${kind}`;
}

/** Keeps the use and replaces the held tokens by the reported ones; or gives both back. */
async function settle(deps: AppDeps, hold: Hold, kept: boolean, reportedTokens: number | null): Promise<void> {
  if (!kept) {
    if (hold.useKind) await returnDailyUse(deps.db, hold.subject, hold.useKind, hold.day);
    if (hold.tokens > 0) await adjust(deps, hold.subject, hold.day, AI_TOKENS_KIND, -hold.tokens);
    return;
  }
  // Without a report (an engine path that sent no request) the estimate stands.
  if (hold.tokens > 0 && reportedTokens !== null && reportedTokens !== hold.tokens) {
    await adjust(deps, hold.subject, hold.day, AI_TOKENS_KIND, reportedTokens - hold.tokens);
  }
}

/**
 * Runs one generation of `user` under the day's limits: over them, 429 'Daily limit reached' before
 * anything runs (so nothing is stored). The use is kept when `run` resolves or has called
 * `meter.stored()`; when it fails before storing anything, the use and the held tokens are given back.
 */
export async function meterGeneration<T>(
  deps: AppDeps,
  user: AuthUser,
  request: GenerationRequest,
  run: (meter: GenerationMeter) => Promise<T>,
): Promise<T> {
  const hold = await take(deps, user, request);
  let reported: number | null = null;
  let kept = false;
  const meter: GenerationMeter = {
    addUsage: (usage) => {
      reported = (reported ?? 0) + usage.promptTokens + usage.completionTokens;
    },
    stored: () => {
      kept = true;
    },
  };
  try {
    const result = await run(meter);
    kept = true;
    return result;
  } finally {
    // Bookkeeping only: the generation's own outcome (stored or failed) is what the caller gets.
    await settle(deps, hold, kept, reported).catch((error: unknown) =>
      deps.log.error({ err: error, userId: user.id, hold }, 'settling an AI generation on the daily counters failed'),
    );
  }
}

function allowance(used: number, limit: number | null): AiAllowance {
  return { used, limit, left: limit === null ? null : Math.max(0, limit - used) };
}

/** GET /v1/ai-usage: the account's generations and LLM tokens of the current UTC day, and what is left. */
export async function getAiUsage(deps: AppDeps, user: AuthUser): Promise<AiUsage> {
  const day = usageDay();
  const rows = await deps.db.dailyUsage.findMany({
    where: { subject: user.id, day, kind: { in: [AI_GENERATION_KIND, AI_TOKENS_KIND] } },
    select: { kind: true, count: true },
  });
  const used = (kind: string) => rows.find((r) => r.kind === kind)?.count ?? 0;
  const premium = isPremiumActive(user);
  const engine = serverEngine(deps);
  const tokens = allowance(used(AI_TOKENS_KIND), engine === 'llm' ? tokenBudget(deps, premium) : null);
  const generations = allowance(used(AI_GENERATION_KIND), countsUse(deps, engine) ? useLimit('meeting', premium) : null);
  // With the token budget spent, no LLM generation starts, whatever the count says.
  if (generations.left !== null && tokens.left === 0) generations.left = 0;
  const resetsAt = Date.parse(`${day}T00:00:00.000Z`) + 24 * 60 * 60 * 1000;
  return { day, resetsAt, generations, tokens };
}
