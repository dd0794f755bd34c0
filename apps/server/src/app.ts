import { randomUUID } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyError } from 'fastify';
import { MAX_REQUEST_URL_LENGTH } from '@mbox/shared';
import type { AppError } from './app-error.js';
import type { AppDeps } from './deps.js';
import { registerApiDocs } from './http/api-docs.js';
import { closeIdleConnectionsOnClose } from './http/connections.js';
import { sendRequestError } from './http/error-body.js';
import { registerHealthCheck } from './http/health.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { RequestLogController, lazyChildLogger } from './http/logger.js';
import { registerRequestGuards } from './http/request-guards.js';
import { registerExtensionZip, registerWebApp } from './http/static-files.js';
import { trustProxyOption } from './http/trust-proxy.js';
import { registerWorkers } from './jobs/workers.js';
import { registerAccountExportRoute } from './modules/account/route.js';
import { registerRecapEmailRoute } from './modules/recap/route.js';
import { registerStripeWebhook } from './modules/billing/webhook.js';
import { registerExportRoute } from './modules/export/route.js';
import { registerOneClickUnsubscribe } from './modules/recap/one-click.js';
import { registerMcpRoute } from './modules/mcp/route.js';
import { meetingRestRoutes, registerMeetingSubscriptions } from './modules/meeting/route.js';
import { transcriptRestRoutes } from './modules/transcript/route.js';
import { sealClearWebhookSecrets } from './modules/webhooks/service.js';
import { registerSecurityHeaders } from './security-headers.js';
import { appRouter, type AppRouter } from './trpc/app-router.js';
import { contextRequest, createContext } from './trpc/context.js';
import { registerRestRoutes } from './trpc/rest-adapter.js';

/** Largest request body accepted; a transcript batch is far smaller. */
const BODY_LIMIT = 2 * 1024 * 1024;

export async function buildApp(deps: AppDeps, options: { webDist?: string | null; extensionZipDir?: string } = {}) {
  const app = Fastify({
    loggerInstance: deps.log,
    bodyLimit: BODY_LIMIT,
    trustProxy: trustProxyOption(deps.config.TRUST_PROXY),
    // Long-lived subscription streams must not hold up shutdown; they end on deps.shutdown.
    forceCloseConnections: 'idle',
    // Unique across restarts and instances: a 500 shows it, and it finds the log lines of the request.
    genReqId: () => randomUUID(),
    // A batched tRPC GET names every procedure in one path segment (/trpc/a,b,c); the client keeps URLs
    // under MAX_REQUEST_URL_LENGTH, Fastify's default of 100 characters answered longer batches 414.
    // REST paths are matched ignoring case and a trailing slash (as the API has always answered them).
    routerOptions: { maxParamLength: MAX_REQUEST_URL_LENGTH, caseSensitive: false, ignoreTrailingSlash: true },
    logController: new RequestLogController(),
    childLoggerFactory: lazyChildLogger,
  });

  closeIdleConnectionsOnClose(app);
  registerJsonBodyParser(app);
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => sendRequestError(error, request, reply, BODY_LIMIT));

  registerSecurityHeaders(app, deps.config);
  await registerRequestGuards(app, deps);

  await deps.events.start();
  app.addHook('onClose', () => deps.events.close());
  // Before deliveries start: signing secrets stored in clear by an older version are sealed once.
  await sealClearWebhookSecrets(deps);
  registerWorkers(deps);
  await deps.jobs.start();
  // Before the database closes (main.ts closes it after the app): running jobs finish or are retried later.
  app.addHook('onClose', () => deps.jobs.stop());
  // After the jobs: a recap still summarising finishes in its worker thread first.
  app.addHook('onClose', () => deps.ai.close());

  // The web app's session cookies (modules/auth/cookies.ts).
  await app.register(fastifyCookie);

  // Answers above 1 kB compressed as the client accepts (br at quality 4, gzip), for every route added
  // below. Never `text/event-stream` (the plugin's default types leave it out, so subscriptions stream
  // event by event), nor answers that already carry a Content-Encoding. Request bodies are not inflated.
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'], globalDecompression: false });

  if (deps.config.CORS_ORIGIN) {
    await app.register(fastifyCors, { origin: deps.config.CORS_ORIGIN.split(','), credentials: false });
  }

  registerHealthCheck(app, deps);

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      // Credentials come from the Authorization header or the session cookie, never from the URL.
      createContext: ({ req, res }) => createContext(deps, contextRequest(deps, req, res)),
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  await registerApiDocs(app, deps);
  await registerStripeWebhook(app, deps);
  await registerOneClickUnsubscribe(app, deps);
  registerExportRoute(app, deps);
  registerAccountExportRoute(app, deps);
  registerRecapEmailRoute(app, deps);
  registerMcpRoute(app, deps);
  registerRestRoutes(app, deps, { ...transcriptRestRoutes, ...meetingRestRoutes });
  registerMeetingSubscriptions(app, deps);

  registerExtensionZip(app, options.extensionZipDir);
  await registerWebApp(app, options.webDist);

  return app;
}
