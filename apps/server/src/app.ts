import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import fastifySwagger, { type StaticDocumentSpec } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyError } from 'fastify';
import { MAX_REQUEST_URL_LENGTH } from '@mbox/shared';
import { repoRoot } from './db/paths.js';
import type { Config } from './config.js';
import type { AppDeps } from './deps.js';
import { errorBody } from './http/error-body.js';
import { RequestLogController, lazyChildLogger } from './http/logger.js';
import { registerRequestGuards } from './http/request-guards.js';
import { registerWorkers } from './jobs/workers.js';
import { registerAccountExportRoute } from './modules/account/route.js';
import { registerRecapEmailRoute } from './modules/recap/route.js';
import { registerStripeWebhook } from './modules/billing/webhook.js';
import { registerExportRoute } from './modules/export/route.js';
import { registerOneClickUnsubscribe } from './modules/recap/one-click.js';
import { meetingRestRoutes, registerMeetingSubscriptions } from './modules/meeting/route.js';
import { transcriptRestRoutes } from './modules/transcript/route.js';
import { sealClearWebhookSecrets } from './modules/webhooks/service.js';
import { openApiDocument } from './openapi.js';
import { docsPagePolicy, registerSecurityHeaders } from './security-headers.js';
import { appRouter, type AppRouter } from './trpc/app-router.js';
import { contextRequest, createContext } from './trpc/context.js';
import { registerRestRoutes } from './trpc/rest-adapter.js';

/** Largest request body accepted; a transcript batch is far smaller. */
const BODY_LIMIT = 2 * 1024 * 1024;

/**
 * Deepest nesting of objects and arrays a body may have; real calls use 3. Deeper bodies overflow the
 * stack of recursive code downstream (JSON.stringify in the tRPC adapter failed at 5,000 levels).
 */
const MAX_JSON_DEPTH = 32;

/** Nesting depth of a JSON text, found without recursion (strings are skipped). */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') deepest = Math.max(deepest, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return deepest;
}

/** Where `npm run build` leaves the extension's store package (apps/extension/build.ts). */
const EXTENSION_ZIP_DIR = join(repoRoot, 'apps/extension/dist-zip');
const EXTENSION_ZIP_NAME = /^mbox-extension-[\w.-]+\.zip$/;

/**
 * TRUST_PROXY as Fastify's trustProxy. A hop count trusts that many hops of X-Forwarded-For, counted from
 * this server: Fastify's own number option now trusts none (it cannot check the peer), so the count is
 * given as the function it stands for. It suits a server only its proxies can reach; else list them.
 */
function trustProxyOption(trust: Config['TRUST_PROXY']): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

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

  // Closing must not wait on connections that have no response to finish: Node's close() leaves
  // keep-alive connections open that were idle when it began (forceCloseConnections: 'idle' runs once),
  // and those opened without a request yet (which a client's pool may open and hold for its keep-alive
  // timeout, 70 s after Fastify's hint). So when closing begins, each connection without a response in
  // progress is closed, as Node closes idle ones, and the others end as their response finishes.
  const connections = new Set<Socket>();
  const responding = new Set<Socket>();
  let closing = false;
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    responding.add(socket);
    response.once('close', () => {
      responding.delete(socket);
      if (closing) socket.end();
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of connections) if (!responding.has(socket)) socket.destroy();
  });

  // Clients send `Content-Type: application/json` on every call, also on GET and DELETE with no body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (!text.trim()) return done(null, undefined);
    if (jsonDepth(text) > MAX_JSON_DEPTH) {
      const error = new Error(`Body is nested too deeply: at most ${MAX_JSON_DEPTH} levels`) as FastifyError;
      error.statusCode = 400;
      return done(error, undefined);
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      const error = new Error('Body is not valid JSON') as FastifyError;
      error.statusCode = 400;
      done(error, undefined);
    }
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'request failed');
    const message =
      status === 413 ? `Body too large: at most ${BODY_LIMIT} bytes` : status === 500 ? 'Internal server error' : error.message;
    return reply.status(status).send(errorBody(status, message, status === 500 ? request.id : undefined));
  });

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

  app.get('/healthz', async (_request, reply) => {
    try {
      await deps.db.$queryRaw`SELECT 1`;
      return { ok: true, database: deps.database.kind };
    } catch {
      return reply.status(503).send({ ok: false, database: deps.database.kind });
    }
  });

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      // Credentials come from the Authorization header or the session cookie, never from the URL.
      createContext: ({ req, res }) => createContext(deps, contextRequest(deps, req, res)),
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  const document = openApiDocument();
  app.get('/v1/openapi.json', async () => document);
  await registerStripeWebhook(app, deps);
  await registerOneClickUnsubscribe(app, deps);
  registerExportRoute(app, deps);
  registerAccountExportRoute(app, deps);
  registerRecapEmailRoute(app, deps);
  // Browsable page at /docs; its assets ship inside @fastify/swagger-ui (works offline). Static mode
  // only hands the UI our document (also served at /docs/json), it does not describe Fastify's routes.
  await app.register(fastifySwagger, {
    mode: 'static',
    // The same JSON; trpc-to-openapi and @fastify/swagger type OpenAPI 3 with different packages.
    specification: { document: document as unknown as StaticDocumentSpec['document'] },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: docsPagePolicy(deps.config) });
  registerRestRoutes(app, deps, { ...transcriptRestRoutes, ...meetingRestRoutes });
  registerMeetingSubscriptions(app, deps);

  // The extension package for developer-mode installs (web page /extension), until it is in the store.
  const extensionZipDir = options.extensionZipDir ?? EXTENSION_ZIP_DIR;
  app.get('/extension/mbox-extension.zip', async (_request, reply) => {
    const name = (await readdir(extensionZipDir).catch(() => [])).find((file) => EXTENSION_ZIP_NAME.test(file));
    if (!name) {
      return reply.status(404).send(errorBody(404, 'The extension package is not built on this server: run npm run build'));
    }
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'no-cache')
      .send(await readFile(join(extensionZipDir, name)));
  });

  const webDist = options.webDist === undefined ? join(repoRoot, 'apps/web/dist') : options.webDist;
  const serveWeb = webDist !== null && existsSync(join(webDist, 'index.html'));
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: ['index.html'],
      // Vite names assets by content hash: they never change. The shell is revalidated on every load.
      setHeaders: (reply, path) =>
        void reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'),
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isApi = /^\/(v1|trpc)(\/|$)/.test(request.url);
    if (serveWeb && request.method === 'GET' && !isApi) {
      // SPA fallback: client-side routes load the app shell.
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send(errorBody(404, `No route for ${request.method} ${request.url.split('?')[0]}`));
  });

  return app;
}
