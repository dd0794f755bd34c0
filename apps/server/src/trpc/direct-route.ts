import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { TRPCError, type AnyRouter } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { getErrorShape, getTRPCErrorFromUnknown } from '@trpc/server/unstable-core-do-not-import';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { AppDeps } from '../deps.js';
import { contextRequest, createContext, type Context } from './context.js';

type App = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>;

export interface DirectRoute<TRouter extends AnyRouter> {
  /** The router of the REST facade's procedure this route answers for: its meta and error formatter. */
  router: TRouter;
  /** The procedure's name in that router and its path in the app's, e.g. 'ingest' and 'transcript.ingest'. */
  procedure: keyof TRouter['_def']['procedures'] & string;
  path: string;
  /** Makes the call through a tRPC caller, so the procedure ladder, its input schema and service run as they do for tRPC. */
  call: (ctx: Context, input: Record<string, unknown>) => Promise<unknown>;
  /** `call` answers JSON text (a string, or a stream of it), sent as it is. */
  answersJsonText?: boolean;
  /** Answers of a few dozen bytes need no compression hook. */
  compress?: false;
  config?: FastifyContextConfig;
}

/**
 * A call of the REST facade (trpc-to-openapi) served by a plain Fastify route in front of it, for the
 * calls made most often. The facade builds a WHATWG URL and AbortSignal per call and re-parses its
 * path; this route hands the parsed body, or query and path parameters, straight to a tRPC caller of
 * the same procedure (same normalisation, zod schema, sign-in through createContext, service and error
 * formatter), so the logic keeps one code path. What the facade does itself is repeated here: a
 * body-carrying call needs `Content-Type: application/json` (415); the body, or the query's first values
 * with the path's parameters, is the input; an error answers the formatter's shape with the code's
 * status. Everything around the call (Host and Origin guards, rate limits, body limits, security
 * headers, compression) is app-wide Fastify hooks and applies as to every route. The OpenAPI document
 * still comes from the procedure.
 */
export function registerDirectRoute<TRouter extends AnyRouter>(app: App, deps: AppDeps, route: DirectRoute<TRouter>): void {
  const procedure = route.router._def.procedures[route.procedure] as { _def: { meta?: OpenApiMeta; type: 'query' | 'mutation' } };
  const openapi = procedure._def.meta?.openapi;
  if (!openapi) throw new Error(`${route.path} is no call of the REST facade`);
  const usesBody = openapi.method !== 'GET' && openapi.method !== 'DELETE';
  // The facade's `{id}` path parameters are Fastify's `:id`.
  const url = `/v1${openapi.path.replace(/\{(\w+)\}/g, ':$1')}`;

  app.route({
    method: openapi.method,
    url,
    ...(route.compress === false ? { compress: false } : {}),
    ...(route.config ? { config: route.config } : {}),
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      let ctx: Context | undefined;
      const input = usesBody ? { ...(request.body as object | undefined) } : { ...firstValues(request.query), ...(request.params as object) };
      try {
        // As the facade: a body-carrying call must say it is JSON (Fastify parses text/plain too).
        const contentType = request.headers['content-type'];
        if (usesBody && !contentType?.startsWith('application/json')) {
          throw new TRPCError({
            code: 'UNSUPPORTED_MEDIA_TYPE',
            message: contentType ? `Unsupported content-type "${contentType}` : 'Missing content-type header',
          });
        }
        ctx = await createContext(deps, contextRequest(deps, request, reply));
        const answer = await route.call(ctx, input);
        return route.answersJsonText ? reply.type('application/json; charset=utf-8').send(answer) : answer;
      } catch (cause) {
        const error = getTRPCErrorFromUnknown(cause);
        const shape = getErrorShape({ config: route.router._def._config, error, type: procedure._def.type, path: route.path, input, ctx });
        return reply.status(getHTTPStatusCodeFromError(error)).send({ ...shape, code: error.code });
      }
    },
  });
}

/** A query's parameters as the facade reads them: a name given once is its value, one given more often its values. */
function firstValues(query: unknown): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
    if (value) values[name] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  return values;
}
