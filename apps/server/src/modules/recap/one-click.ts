import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { TRPCError } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppDeps } from '../../deps.js';
import { unsubscribe } from './service.js';

/**
 * RFC 8058 one-click unsubscribe: the URL of a recap's List-Unsubscribe header. Mail programs POST
 * `List-Unsubscribe=One-Click` (form-encoded) to it, token in the query; any body is accepted.
 */
export async function registerOneClickUnsubscribe(
  app: FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>,
  deps: AppDeps,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, _body, done) => done(null, undefined));
    scope.post('/email/unsubscribe', async (request, reply) => {
      const { token } = request.query as { token?: unknown };
      if (typeof token !== 'string' || !token) {
        return reply.status(400).send({ message: 'The unsubscribe link has no token', code: 'BAD_REQUEST', data: { code: 'BAD_REQUEST', httpStatus: 400 } });
      }
      try {
        await unsubscribe(deps, token);
        return { ok: true };
      } catch (error) {
        if (!(error instanceof TRPCError)) throw error;
        const [status, code] = error.code === 'NOT_FOUND' ? [404, 'NOT_FOUND'] : [400, 'BAD_REQUEST'];
        return reply.status(status).send({ message: error.message, code, data: { code, httpStatus: status } });
      }
    });
  });
}
