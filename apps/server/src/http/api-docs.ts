import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyPlugin from 'fastify-plugin';
import type { AppDeps } from '../deps.js';
import { openApiDocument } from '../openapi.js';
import { docsPagePolicy } from '../security-headers.js';
import type { FastifyApp } from './fastify-app.js';

/**
 * The OpenAPI document at `/v1/openapi.json` and the browsable Swagger UI at `/docs` (its assets ship
 * inside @fastify/swagger-ui: it works offline). The document is written on its first request, not at
 * start: writing it takes about a tenth of a second, on every start (docs/performance.md, "Start-up").
 */
export async function registerApiDocs(app: FastifyApp, deps: AppDeps): Promise<void> {
  let document: ReturnType<typeof openApiDocument> | undefined;
  const getDocument = () => (document ??= openApiDocument());
  app.get('/v1/openapi.json', async () => getDocument());

  // The UI reads the document from `fastify.swagger()`, which @fastify/swagger provides. In its static
  // mode that library only handed a ready document over, so this plugin takes its name and does that,
  // lazily. With a transform set, the UI writes its YAML view itself and never asks for it.
  await app.register(
    fastifyPlugin(
      async (instance) => {
        instance.decorate('swagger', getDocument);
      },
      { name: '@fastify/swagger', fastify: '5.x' },
    ),
  );
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    staticCSP: docsPagePolicy(deps.config),
    transformSpecification: (specification) => specification,
    transformSpecificationClone: false,
  });
}
