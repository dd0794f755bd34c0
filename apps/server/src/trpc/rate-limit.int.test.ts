import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DAILY_LIMIT_REACHED, isPremiumActive } from '@mbox/shared';
import { bearerContextRequest, startTestApp, type TestApp } from '../test/app.js';
import { makePremium } from '../test/fixtures.js';
import { createContext } from './context.js';
import { dailyLimit, usageDay } from './rate-limit.js';
import { authedProcedure, createCallerFactory, publicProcedure, router } from './trpc.js';

const limitedRouter = router({
  generate: authedProcedure
    .use(dailyLimit('test-generate', (user) => (user && isPremiumActive(user) ? null : 3)))
    .input(z.object({ fail: z.boolean().default(false) }))
    .mutation(({ input }) => {
      if (input.fail) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'model down' });
      return 'ok';
    }),
  race: authedProcedure.use(dailyLimit('test-race', () => 4)).mutation(() => 'ok'),
  tool: publicProcedure.use(dailyLimit('test-tool', () => 2)).query(() => 'ok'),
});

const createCaller = createCallerFactory(limitedRouter);

describe('daily limit middleware', () => {
  let app: TestApp;
  let ana: string;
  beforeAll(async () => {
    app = await startTestApp();
    ana = await app.signIn('ana@example.com');
  });
  afterAll(() => app.close());

  const caller = async (token: string | undefined, ip = '203.0.113.7') =>
    createCaller(await createContext(app.deps, bearerContextRequest(app.deps, { token, ip })));

  const rejection = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TRPCError);
    return error as TRPCError;
  };

  it("allows the limit per user and UTC day, then answers 429 'Daily limit reached'", async () => {
    const api = await caller(ana);
    for (let i = 0; i < 3; i++) expect(await api.generate({})).toBe('ok');
    const error = await rejection(api.generate({}));
    expect(error.code).toBe('TOO_MANY_REQUESTS');
    expect(error.message).toBe(DAILY_LIMIT_REACHED);
    expect(getHTTPStatusCodeFromError(error)).toBe(429);
    const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'ana@example.com' } });
    const usage = await app.deps.db.dailyUsage.findMany({ where: { subject: user.id } });
    expect(usage).toEqual([{ subject: user.id, day: usageDay(), kind: 'test-generate', count: 3 }]);
    expect(usageDay(new Date('2026-11-22T23:30:00-05:00'))).toBe('2026-11-23');
  });

  it('does not count failed calls', async () => {
    const bo = await app.signIn('bo@example.com');
    const api = await caller(bo);
    for (let i = 0; i < 5; i++) expect((await rejection(api.generate({ fail: true }))).code).toBe('INTERNAL_SERVER_ERROR');
    for (let i = 0; i < 3; i++) expect(await api.generate({})).toBe('ok');
    expect((await rejection(api.generate({}))).code).toBe('TOO_MANY_REQUESTS');
  });

  it('never lets concurrent calls pass the limit', async () => {
    const cy = await app.signIn('cy@example.com');
    const api = await caller(cy);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => api.race()));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.every((r) => r.reason instanceof TRPCError && r.reason.code === 'TOO_MANY_REQUESTS')).toBe(true);
  });

  it('leaves premium users unlimited when the limit says so', async () => {
    const dee = await app.signIn('dee@example.com');
    await makePremium(app, 'dee@example.com');
    const api = await caller(dee);
    for (let i = 0; i < 6; i++) expect(await api.generate({})).toBe('ok');
    const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: 'dee@example.com' } });
    expect(await app.deps.db.dailyUsage.count({ where: { subject: user.id } })).toBe(0);
  });

  it('counts anonymous calls per client address', async () => {
    const first = await caller(undefined, '198.51.100.1');
    expect(await first.tool()).toBe('ok');
    expect(await first.tool()).toBe('ok');
    expect((await rejection(first.tool())).code).toBe('TOO_MANY_REQUESTS');
    expect(await (await caller(undefined, '198.51.100.2')).tool()).toBe('ok');
    const usage = await app.deps.db.dailyUsage.findUniqueOrThrow({
      where: { subject_day_kind: { subject: 'ip:198.51.100.1', day: usageDay(), kind: 'test-tool' } },
    });
    expect(usage.count).toBe(2);
  });
});
