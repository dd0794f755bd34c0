import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { describe, expect, it } from 'vitest';
import { DAILY_LIMIT_REACHED } from '@mbox/shared';
import { AppError, ERROR_KINDS, invalidField, kindOfStatus, type AppErrorCode } from './app-error.js';
import { errorBody } from './http/error-body.js';
import { createCallerFactory, publicProcedure, router, trpcErrorOf } from './trpc/trpc.js';
import type { Context } from './trpc/context.js';

describe('ERROR_KINDS', () => {
  it("gives each kind the status tRPC answers for its code, so /trpc, REST and SSE agree", () => {
    for (const [code, kind] of Object.entries(ERROR_KINDS)) {
      if (kind.trpc === null) continue;
      expect(getHTTPStatusCodeFromError(new TRPCError({ code: kind.trpc })), code).toBe(kind.status);
      expect(kind.code, code).toBe(kind.trpc);
    }
  });

  it('names one general kind per status, the one the error body and the OpenAPI document use', () => {
    expect(kindOfStatus(429)?.code).toBe('TOO_MANY_REQUESTS');
    expect(kindOfStatus(403)?.code).toBe('FORBIDDEN');
    expect(kindOfStatus(421)?.code).toBe('MISDIRECTED_REQUEST');
    expect(kindOfStatus(418)).toBeUndefined();
    const documented = Object.values(ERROR_KINDS).filter((kind) => 'document' in kind);
    expect(new Set(documented.map((kind) => kind.status)).size).toBe(documented.length);
  });
});

describe('AppError', () => {
  it("says the table's message when the throw site gives none", () => {
    const error = new AppError('DAILY_LIMIT_REACHED');
    expect([error.message, error.status, error.trpcCode]).toEqual([DAILY_LIMIT_REACHED, 429, 'TOO_MANY_REQUESTS']);
  });
});

describe('trpcErrorOf', () => {
  it("translates an AppError by its code's row", () => {
    const error = trpcErrorOf(new AppError('PREMIUM_REQUIRED'));
    expect([error.code, error.message]).toEqual(['FORBIDDEN', 'This is a premium feature: upgrade to premium to use it']);
  });

  it('translates one that tRPC already wrapped as an internal error (thrown while a stream runs)', () => {
    const wrapped = new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: new AppError('NOT_FOUND', 'Meeting not found') });
    expect(trpcErrorOf(wrapped).code).toBe('NOT_FOUND');
  });

  it('answers an invalid field as an input error naming it', () => {
    expect(trpcErrorOf(invalidField('url', 'Webhook URL refused')).message).toBe('Invalid input: url: Webhook URL refused');
  });

  it('keeps a TRPCError and makes anything else an internal error', () => {
    const own = new TRPCError({ code: 'CONFLICT', message: 'changed' });
    expect(trpcErrorOf(own)).toBe(own);
    expect(trpcErrorOf(new Error('boom')).code).toBe('INTERNAL_SERVER_ERROR');
  });
});

describe('a procedure that throws AppError', () => {
  const testRouter = router({
    missing: publicProcedure.query(() => {
      throw new AppError('NOT_FOUND', 'Meeting not found');
    }),
    badField: publicProcedure.mutation(() => {
      throw invalidField('promptKey', "must be the summary's prompt key 'default'");
    }),
  });
  const ctx = { user: null, authRefusal: null, credentials: null, csrfPassed: true, requestId: 'r1' } as unknown as Context;
  const caller = createCallerFactory(testRouter)(ctx);

  it('fails with the tRPC error of its code, which the formatter shapes as the API error', async () => {
    const error = await caller.missing().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect([(error as TRPCError).code, (error as TRPCError).message]).toEqual(['NOT_FOUND', 'Meeting not found']);
  });

  it('fails with an input error naming the field', async () => {
    const error = (await caller.badField().catch((e: unknown) => e)) as TRPCError;
    expect([error.code, error.message]).toEqual(['BAD_REQUEST', "Invalid input: promptKey: must be the summary's prompt key 'default'"]);
  });
});

describe('errorBody', () => {
  it('answers a status in the API error shape with its general code', () => {
    expect(errorBody(404, 'No route for GET /v1/nothing')).toEqual({
      message: 'No route for GET /v1/nothing',
      code: 'NOT_FOUND',
      data: { code: 'NOT_FOUND', httpStatus: 404 },
    });
    const codes: AppErrorCode[] = ['CONFLICT', 'BAD_GATEWAY'];
    for (const code of codes) expect(errorBody(ERROR_KINDS[code].status, 'x').code).toBe(code);
  });
});
