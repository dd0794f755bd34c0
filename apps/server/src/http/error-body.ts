import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorBody } from '@mbox/shared';

const statusCodes: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  421: 'MISDIRECTED_REQUEST',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/** An answer the server gives itself (bad JSON, unknown route, refused Host, rate limit) in the API's error shape. */
export function errorBody(status: number, message: string, requestId?: string): ApiErrorBody {
  const code = statusCodes[status] ?? 'INTERNAL_SERVER_ERROR';
  return { message, code, data: { code, httpStatus: status, ...(requestId ? { requestId } : {}) } };
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
