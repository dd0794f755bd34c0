import Fastify, { type FastifyError } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../app-error.js';
import { sendRequestError } from './error-body.js';

describe('sendRequestError, the error handler of plain routes', () => {
  const app = Fastify({ bodyLimit: 10 });
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => sendRequestError(error, request, reply, 10));
  app.get('/refused', async () => {
    throw new AppError('PRECONDITION_FAILED', 'This summary cannot be decrypted with the server key');
  });
  app.get('/limit', async () => {
    throw new AppError('DAILY_LIMIT_REACHED');
  });
  app.get('/broken', async () => {
    throw new Error('connection pool exhausted');
  });
  app.post('/echo', async (request) => request.body);
  afterAll(() => app.close());

  it('answers an AppError with the status, code and message of its kind', async () => {
    const refused = await app.inject({ method: 'GET', url: '/refused' });
    expect([refused.statusCode, refused.json()]).toEqual([
      412,
      { message: 'This summary cannot be decrypted with the server key', code: 'PRECONDITION_FAILED', data: { code: 'PRECONDITION_FAILED', httpStatus: 412 } },
    ]);
    const limit = await app.inject({ method: 'GET', url: '/limit' });
    expect([limit.statusCode, limit.json().message, limit.json().code]).toEqual([429, 'Daily limit reached', 'TOO_MANY_REQUESTS']);
  });

  it('answers anything else as a 500 that says only so, with the request id', async () => {
    const broken = await app.inject({ method: 'GET', url: '/broken' });
    expect(broken.statusCode).toBe(500);
    expect(broken.json()).toEqual({
      message: 'Internal server error',
      code: 'INTERNAL_SERVER_ERROR',
      data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500, requestId: expect.any(String) },
    });
  });

  it("answers Fastify's own refusals by their status, a body too large naming the limit", async () => {
    const large = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"text":"far too long"}' });
    expect([large.statusCode, large.json().message, large.json().code]).toEqual([413, 'Body too large: at most 10 bytes', 'PAYLOAD_TOO_LARGE']);
  });
});
