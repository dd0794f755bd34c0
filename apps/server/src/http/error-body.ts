import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorBody } from '@mbox/shared';
import { AppError, ERROR_KINDS, kindOfStatus } from '../app-error.js';

/** An answer the server gives itself (bad JSON, unknown route, refused Host, rate limit) in the API's error shape. */
export function errorBody(status: number, message: string, requestId?: string): ApiErrorBody {
  const code = kindOfStatus(status)?.code ?? 'INTERNAL_SERVER_ERROR';
  return { message, code, data: { code, httpStatus: status, ...(requestId ? { requestId } : {}) } };
}

/**
 * Every failure of a plain Fastify route (a download, a webhook, a page) and of Fastify itself (bad
 * JSON, body too large), answered in the API's error shape: an AppError by its code (ERROR_KINDS), a
 * Fastify error by its 4xx status, anything else as a 500 that only says so, with the request id of
 * its log line.
 */
export function sendRequestError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply, bodyLimit: number): FastifyReply {
  const status =
    error instanceof AppError ? error.status : error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 500) request.log.error({ err: error }, 'request failed');
  const message =
    status === 413 && !(error instanceof AppError)
      ? `Body too large: at most ${bodyLimit} bytes`
      : status === 500
        ? ERROR_KINDS.INTERNAL_SERVER_ERROR.message
        : error.message;
  return reply.status(status).send(errorBody(status, message, status === 500 ? request.id : undefined));
}

const isTrpcCode = (code: string): code is TRPC_ERROR_CODE_KEY => code in TRPC_ERROR_CODES_BY_KEY;

/**
 * Refuses a request before any procedure runs. A tRPC call gets the same message and data inside tRPC's
 * envelope (one per call of a batch), so the tRPC client reads the status as it does for a procedure's
 * error; everything else gets the plain API error body.
 */
export function sendApiError(request: FastifyRequest, reply: FastifyReply, status: number, message: string): FastifyReply {
  const body = errorBody(status, message);
  const path = request.url.split('?', 1)[0] ?? '';
  if (!path.startsWith('/trpc/') || !isTrpcCode(body.code)) return reply.status(status).send(body);
  const error = { error: { message, code: TRPC_ERROR_CODES_BY_KEY[body.code], data: body.data } };
  const batch = new URLSearchParams(request.url.slice(path.length + 1)).get('batch') === '1';
  const calls = batch ? path.slice('/trpc/'.length).split(',').length : 1;
  return reply.status(status).send(batch ? Array.from({ length: calls }, () => error) : error);
}
