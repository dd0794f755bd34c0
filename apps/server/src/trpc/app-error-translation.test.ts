import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_KINDS, invalidField } from '../app-error.js';
import type { Context } from './context.js';
import { createCallerFactory, publicProcedure, router, trpcErrorOf } from './trpc.js';

describe('ERROR_KINDS over tRPC', () => {
  it('gives each kind the status tRPC answers for its code, so /trpc, REST and SSE agree', () => {
    for (const [code, kind] of Object.entries(ERROR_KINDS)) {
      if (kind.trpc === null) continue;
      expect(getHTTPStatusCodeFromError(new TRPCError({ code: kind.trpc })), code).toBe(kind.status);
      expect(kind.code, code).toBe(kind.trpc);
    }
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
  // What the procedure ladder reads of an anonymous call's context before the procedure runs.
  const ctx = { user: null, authRefusal: null, credentials: null, csrfPassed: true, requestId: 'r1' } as unknown as Context;
  const caller = createCallerFactory(testRouter)(ctx);

  it("fails with the tRPC error of its code and message", async () => {
    const error = (await caller.missing().catch((e: unknown) => e)) as TRPCError;
    expect(error).toBeInstanceOf(TRPCError);
    expect([error.code, error.message]).toEqual(['NOT_FOUND', 'Meeting not found']);
  });

  it('fails with an input error naming the field', async () => {
    const error = (await caller.badField().catch((e: unknown) => e)) as TRPCError;
    expect([error.code, error.message]).toEqual(['BAD_REQUEST', "Invalid input: promptKey: must be the summary's prompt key 'default'"]);
  });
});
