import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { AppError } from '../../app-error.js';
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
    scope.post('/email/unsubscribe', async (request) => {
      const { token } = request.query as { token?: unknown };
      if (typeof token !== 'string' || !token) throw new AppError('BAD_REQUEST', 'The unsubscribe link has no token');
      // A link that is not valid (400) or of a deleted account (404) is answered by the app's error handler.
      await unsubscribe(deps, token);
      return { ok: true };
    });
  });
}
