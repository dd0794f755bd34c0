import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ACCOUNT_EXPORT_PATH, dayKey } from '@mbox/shared';
import type { AppDeps } from '../../deps.js';
import { errorBody } from '../../http/error-body.js';
import { routeSessionUser } from '../../http/route-auth.js';
import { exportTimeZone } from '../export/service.js';
import { accountExportZip } from './export-zip.js';

/**
 * `GET /v1/account/export`: the account's data as a zip to download (Settings → Account → Download my
 * data). A Fastify route rather than a procedure, because the zip streams out as it is written; signed
 * in as the procedures are (bearer, or the web app's cookie). One export per account at a time on this
 * instance. Described in the OpenAPI document by openapi.ts.
 */
export function registerAccountExportRoute(app: FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>, deps: AppDeps): void {
  const exporting = new Set<string>();

  // A zip is compressed already.
  app.get(ACCOUNT_EXPORT_PATH, { compress: false }, async (request, reply) => {
    const user = await routeSessionUser(deps, request, reply);
    if (!user) return reply;
    if (Object.keys(request.query as object).length) {
      return reply.status(400).send(errorBody(400, 'Invalid input: this call takes no parameters'));
    }
    if (exporting.has(user.id)) {
      return reply.status(429).send(errorBody(429, 'An export of this account is already being written: try again when it finishes'));
    }
    exporting.add(user.id);
    reply.raw.once('close', () => exporting.delete(user.id));
    const zip = await accountExportZip(deps, user);
    const day = dayKey(Date.now(), exportTimeZone(user));
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="mbox-data-${day}.zip"`)
      .header('cache-control', 'private, no-store')
      .send(zip);
  });
}
