import type { AppDeps } from '../deps.js';
import type { FastifyApp } from './fastify-app.js';

/** `GET /healthz`: 200 while the database answers, 503 otherwise; names the database kind. */
export function registerHealthCheck(app: FastifyApp, deps: AppDeps): void {
  app.get('/healthz', async (_request, reply) => {
    try {
      await deps.db.$queryRaw`SELECT 1`;
      return { ok: true, database: deps.database.kind };
    } catch {
      return reply.status(503).send({ ok: false, database: deps.database.kind });
    }
  });
}
