import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { getErrorShape } from '@trpc/server/unstable-core-do-not-import';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { normalizeStrings } from '@mbox/shared';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { AppDeps } from '../deps.js';
import { errorBody } from '../http/error-body.js';
import type { ProcedureInfo } from '../http/procedures.js';
import { appRouter } from './app-router.js';
import { contextRequest, createContext, type Context } from './context.js';
import { createCallerFactory, trpcErrorOf } from './trpc.js';

type App = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>;

/** What a procedure's REST route does differently from the others. */
export interface RestRouteOptions {
  /** A call of its own instead of the app router's procedure (same ladder and input schema, another answer). */
  call?: (ctx: Context, input: unknown) => Promise<unknown>;
  /** `call` answers JSON text (a string, or a stream of it), sent as it is. */
  answersJsonText?: boolean;
  /** Answers of a few dozen bytes need no compression hook. */
  compress?: false;
  config?: FastifyContextConfig;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The procedure a REST route calls: the request guards and rate limits count it. */
    procedure?: ProcedureInfo;
  }
}

interface ZodNode {
  _zod: { def: { type: string; innerType?: ZodNode; in?: ZodNode; out?: ZodNode; shape?: Record<string, ZodNode> } };
}

interface RestProcedure {
  _def: { type: ProcedureInfo['type']; meta?: OpenApiMeta; inputs: ZodNode[] };
}

const JSON_TYPE = 'application/json; charset=utf-8';
const createCaller = createCallerFactory(appRouter);

/** The schema under optional, nullable, default and transform wrappers, as the OpenAPI document describes it. */
function unwrap(schema: ZodNode): ZodNode {
  const { def } = schema._zod;
  if (['optional', 'nullable', 'default', 'prefault', 'readonly'].includes(def.type) && def.innerType) return unwrap(def.innerType);
  if (def.type === 'pipe' && def.in) return unwrap(def.out?._zod.def.type === 'transform' ? def.in : (def.out ?? def.in));
  return schema;
}

/**
 * How a query string value becomes the type its field declares (numbers are the only non-string query
 * fields of the API): as zod's coercion reads it, so `?limit=abc` is refused as a number that is NaN,
 * after the text normalisation every input gets (callBoundary), so `?limit=2%00` is 2.
 */
function queryCoercions(schema: ZodNode | undefined): Map<string, (value: unknown) => unknown> {
  const coercions = new Map<string, (value: unknown) => unknown>();
  const shape = schema ? unwrap(schema)._zod.def.shape : undefined;
  for (const [name, field] of Object.entries(shape ?? {})) {
    if (unwrap(field)._zod.def.type === 'number') coercions.set(name, (value) => Number(normalizeStrings(value)));
  }
  return coercions;
}

/** A query's parameters: a name given once is its value, one given more often its values; empty ones are left out. */
function queryInput(query: unknown, coercions: Map<string, (value: unknown) => unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
    if (!value) continue;
    const first = Array.isArray(value) && value.length === 1 ? value[0] : value;
    values[name] = coercions.get(name)?.(first) ?? first;
  }
  return values;
}

type CallerNode = { [key: string]: CallerNode } & ((input: unknown) => Promise<unknown>);

/** The caller's function for a dotted procedure name. */
function callerProcedure(caller: unknown, name: string): (input: unknown) => Promise<unknown> {
  return name.split('.').reduce((node, key) => node[key]!, caller as CallerNode);
}

/**
 * The REST API (`/v1`, docs/api.md): each procedure whose meta has `openapi` — the operations of the
 * OpenAPI document (openapi.ts) — is a Fastify route at its path that calls the procedure through a
 * tRPC caller, so the procedure ladder, its input schema, its service and the error formatter run as
 * for `/trpc`. The input is the JSON body (a call with a body must say it is JSON, and the body must
 * be an object), or the query's values, with the path's parameters over either; a procedure whose input
 * is `z.void()` gets none. The answer is the procedure's output as JSON; an error answers the
 * formatter's shape with the code's HTTP status. Everything around the call (Host and Origin guards,
 * rate limits, body limits, security headers, compression) is app-wide Fastify hooks, which read the
 * procedure from the route's config.
 */
export function registerRestRoutes(app: App, deps: AppDeps, options: Record<string, RestRouteOptions>): void {
  const procedures = appRouter._def.procedures as unknown as Record<string, RestProcedure>;
  const unknown = Object.keys(options).filter((name) => !procedures[name]?._def.meta?.openapi);
  if (unknown.length) throw new Error(`REST options name no REST procedure: ${unknown.join(', ')}`);
  for (const [name, procedure] of Object.entries(procedures)) {
    const openapi = procedure._def.meta?.openapi;
    const { type } = procedure._def;
    if (!openapi || openapi.enabled === false || type === 'subscription') continue;
    const route = options[name] ?? {};
    const usesBody = openapi.method !== 'GET' && openapi.method !== 'DELETE';
    const [schema] = procedure._def.inputs;
    const takesNoInput = procedure._def.inputs.length === 1 && ['void', 'undefined', 'never'].includes(unwrap(schema!)._zod.def.type);
    const coercions = usesBody ? new Map() : queryCoercions(schema);
    const call = route.call ?? ((ctx: Context, input: unknown) => callerProcedure(createCaller(ctx), name)(input));

    app.route({
      method: openapi.method,
      url: `/v1${openapi.path.replace(/\{(\w+)\}/g, ':$1')}`,
      ...(route.compress === false ? { compress: false } : {}),
      config: { ...route.config, procedure: { name, type } },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { body } = request;
        // Other JSON (null, an array, a number) is no call's input; Fastify parses text/plain too.
        if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
          return reply.status(400).send(errorBody(400, 'Body must be a JSON object'));
        }
        let ctx: Context | undefined;
        const params = request.params as Record<string, string>;
        const input = takesNoInput ? undefined : usesBody ? { ...body, ...params } : { ...queryInput(request.query, coercions), ...params };
        try {
          const contentType = request.headers['content-type'];
          if (usesBody && !contentType?.startsWith('application/json')) {
            throw new TRPCError({
              code: 'UNSUPPORTED_MEDIA_TYPE',
              message: contentType ? `Unsupported content-type "${contentType}` : 'Missing content-type header',
            });
          }
          ctx = await createContext(deps, contextRequest(deps, request, reply));
          const answer = await call(ctx, input);
          return reply.type(JSON_TYPE).send(route.answersJsonText ? answer : JSON.stringify(answer));
        } catch (cause) {
          const error = trpcErrorOf(cause);
          const shape = getErrorShape({ config: appRouter._def._config, error, type, path: name, input, ctx });
          return reply.status(getHTTPStatusCodeFromError(error)).type(JSON_TYPE).send(JSON.stringify({ ...shape, code: error.code }));
        }
      },
    });
  }
}
