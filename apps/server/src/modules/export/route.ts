import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { EXPORT_FORMATS, exportFormatSchema, meetingIdSchema } from '@mbox/shared';
import type { AppDeps } from '../../deps.js';
import { errorBody } from '../../http/error-body.js';
import { routeSessionUser } from '../../http/route-auth.js';
import { exportMeeting } from './service.js';

export const EXPORT_ROUTE = '/v1/meeting/:id/export';

/** PDFs one account may have in the making at once on this instance: each keeps a core busy for a while. */
const MAX_PDFS_PER_USER = 2;

function inputError(reply: FastifyReply, field: string, problem: string) {
  const body = errorBody(400, `Invalid input: ${field}: ${problem}`);
  return reply.status(400).send({ ...body, data: { ...body.data, field, issues: [{ path: field, message: problem }] } });
}

/**
 * `GET /v1/meeting/{id}/export?format=md|txt|srt|vtt|json|pdf`: the meeting as a file to download
 * (docs/export.md). A Fastify route rather than a procedure, because a PDF streams out as it is written;
 * it signs in exactly as the procedures do (createContext: the bearer header, or the web app's session
 * cookie, so a plain link downloads in the browser) and refuses extension tokens by authedProcedure's own check (sessionUser).
 * Described in the OpenAPI document by openapi.ts.
 */
export function registerExportRoute(app: FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>, deps: AppDeps): void {
  const pdfsInProgress = new Map<string, number>();

  app.get(
    EXPORT_ROUTE,
    // SubRip's type is no compressible one by mime-db's list; the text formats go out compressed alike.
    { compress: { encodings: ['br', 'gzip'], threshold: 1024, customTypes: /^application\/x-subrip\b/ } },
    async (request: FastifyRequest<{ Params: { id: string }; Querystring: Record<string, unknown> }>, reply) => {
      const user = await routeSessionUser(deps, request, reply);
      if (!user) return reply;
      const unknown = Object.keys(request.query).filter((key) => key !== 'format');
      if (unknown.length) return inputError(reply, unknown[0]!, 'unknown parameter: only format is read');
      const format = exportFormatSchema.safeParse(request.query.format);
      if (!format.success) {
        return inputError(reply, 'format', `must be one of ${EXPORT_FORMATS.join(', ')} (got ${JSON.stringify(request.query.format ?? null)})`);
      }
      const id = meetingIdSchema.safeParse(request.params.id);
      if (!id.success) return inputError(reply, 'id', 'must be a meeting key of 1 to 100 characters');

      const pdf = format.data === 'pdf';
      if (pdf && (pdfsInProgress.get(user.id) ?? 0) >= MAX_PDFS_PER_USER) {
        return reply.status(429).send(errorBody(429, 'Two PDF exports of this account are already being written: try again when one finishes'));
      }
      // The client leaving (or the server stopping) ends a PDF being written.
      const left = new AbortController();
      reply.raw.once('close', () => left.abort());
      const signal = AbortSignal.any([left.signal, deps.shutdown]);
      if (pdf) {
        pdfsInProgress.set(user.id, (pdfsInProgress.get(user.id) ?? 0) + 1);
        reply.raw.once('close', () => {
          const count = (pdfsInProgress.get(user.id) ?? 1) - 1;
          if (count > 0) pdfsInProgress.set(user.id, count);
          else pdfsInProgress.delete(user.id);
        });
      }
      // Failures (404 for another account's meeting) are answered by the app's error handler.
      const file = await exportMeeting(deps, user, id.data, format.data, signal);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', file.disposition)
        .header('cache-control', 'private, no-store')
        .send(file.body);
    },
  );
}
