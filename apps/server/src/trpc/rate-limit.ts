import { AppError } from '../app-error.js';
import type { AppDeps } from '../deps.js';
import type { Prisma } from '../generated/prisma/client.js';
import { clientAddressKey } from '../http/rate-limit.js';
import type { AuthUser } from '../modules/auth/service.js';
import { middleware } from './trpc.js';

/** UTC calendar day, yyyy-MM-dd: every user's counter resets at the same moment. */
export function usageDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Whom a daily limit counts: the signed-in user, or a visitor's address (`ip:`, IPv6 by /64). */
export function dailySubject(caller: { user: AuthUser | null; ip: string }): string {
  return caller.user ? caller.user.id : `ip:${clientAddressKey(caller.ip)}`;
}

/**
 * Counts `amount` uses of `kind` for `subject` today unless that would pass `limit`. One statement,
 * so concurrent calls never both take the last use. Returns false when the limit is reached.
 */
export async function takeDailyUse(
  db: AppDeps['db'] | Prisma.TransactionClient,
  subject: string,
  kind: string,
  limit: number,
  day = usageDay(),
  amount = 1,
): Promise<boolean> {
  if (limit <= 0 || amount > limit) return false;
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO "DailyUsage" ("subject", "day", "kind", "count") VALUES (${subject}, ${day}, ${kind}, ${amount})
    ON CONFLICT ("subject", "day", "kind") DO UPDATE SET "count" = "DailyUsage"."count" + ${amount}
    WHERE "DailyUsage"."count"::bigint + ${amount} <= ${limit}
    RETURNING "count"`;
  return rows.length > 0;
}

/** Gives back a use whose call failed, so a server or model error does not cost the user. */
export async function returnDailyUse(db: AppDeps['db'], subject: string, kind: string, day: string): Promise<void> {
  await db.dailyUsage.updateMany({ where: { subject, day, kind, count: { gt: 0 } }, data: { count: { decrement: 1 } } });
}

/**
 * Takes one use of `kind` for `subject` under `limit` (null = unlimited), or answers 429 'Daily limit
 * reached'. Returns the give-back for a call that then fails.
 */
export async function takeDailyUseOrThrow(
  db: AppDeps['db'],
  subject: string,
  kind: string,
  limit: number | null,
): Promise<() => Promise<void>> {
  if (limit === null) return async () => {};
  const day = usageDay();
  if (!(await takeDailyUse(db, subject, kind, limit, day))) throw new AppError('DAILY_LIMIT_REACHED');
  return () => returnDailyUse(db, subject, kind, day);
}

/**
 * Daily limit of a procedure, counted per signed-in user, or per client address (`ip:<addr>`) on
 * public procedures. `limit` returns null for unlimited (e.g. premium users). Over the limit the call
 * answers 429 'Daily limit reached'; failed calls do not count.
 */
export function dailyLimit(kind: string, limit: (user: AuthUser | null) => number | null) {
  return middleware(async ({ ctx, next }) => {
    const giveBack = await takeDailyUseOrThrow(ctx.deps.db, dailySubject(ctx), kind, limit(ctx.user));
    const result = await next();
    if (!result.ok) await giveBack();
    return result;
  });
}
