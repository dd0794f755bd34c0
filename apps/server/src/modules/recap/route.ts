import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { recapIdInputSchema } from '@mbox/shared/recap';
import type { AppDeps } from '../../deps.js';
import { errorBody } from '../../http/error-body.js';
import { routeSessionUser } from '../../http/route-auth.js';
import { getRecap } from './service.js';

/**
 * The e-mail's own policy: its inline styles and remote images, nothing else. No script, form or plugin
 * runs (`sandbox`), and only the app's own pages may frame it. The web app's policy (style-src 'self')
 * would otherwise be inherited by an `srcdoc` frame and leave the e-mail unstyled.
 */
export const RECAP_EMAIL_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src https: data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox',
].join('; ');

/**
 * `GET /v1/recaps/{recapId}/email.html`: a recap e-mail's HTML as a page, what the Outbox shows in its
 * preview frame. Signed in as the procedures are (the web app's cookie, or a bearer token); owner-only.
 */
export function registerRecapEmailRoute(app: FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>, deps: AppDeps): void {
  app.get('/v1/recaps/:recapId/email.html', async (request, reply) => {
    const user = await routeSessionUser(deps, request, reply);
    if (!user) return reply;
    const input = recapIdInputSchema.safeParse(request.params);
    if (!input.success) return reply.status(400).send(errorBody(400, 'Invalid input: recapId must be 1 to 100 characters'));
    // Another account's recap is a 404, answered by the app's error handler.
    const recap = await getRecap(deps, user.id, input.data.recapId);
    if (!recap.html) return reply.status(404).send(errorBody(404, 'This recap has no e-mail yet'));
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', RECAP_EMAIL_POLICY)
      .header('x-frame-options', 'SAMEORIGIN')
      .header('cache-control', 'private, no-store')
      .send(recap.html);
  });
}
