import { describe, expect, it } from 'vitest';
import { DAILY_LIMIT_REACHED } from '@mbox/shared';
import { AppError, ERROR_KINDS, kindOfStatus, type AppErrorCode } from './app-error.js';
import { errorBody } from './http/error-body.js';

describe('ERROR_KINDS', () => {
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
