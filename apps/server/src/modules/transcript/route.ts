import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { getErrorShape, getTRPCErrorFromUnknown } from '@trpc/server/unstable-core-do-not-import';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { AppDeps } from '../../deps.js';
import { contextRequest, createContext, type Context } from '../../trpc/context.js';
import { createCallerFactory } from '../../trpc/trpc.js';
import { transcriptRouter } from './router.js';

type App = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>;
type Caller = ReturnType<typeof createCaller>;

const createCaller = createCallerFactory(transcriptRouter);

/** The extension's calls, each as its procedure declares it for the REST facade (router.ts meta). */
const CALLS: { name: keyof typeof transcriptRouter._def.procedures & keyof Caller; call: (caller: Caller, input: unknown) => Promise<unknown> }[] = [
  { name: 'ingest', call: (caller, input) => caller.ingest(input as never) },
  { name: 'events', call: (caller, input) => caller.events(input as never) },
  { name: 'end', call: (caller, input) => caller.end(input as never) },
];

/**
 * `POST /v1/transcript/{lines,events,end}`, the extension's calls (one a second per open meeting), as
 * plain Fastify routes in front of the REST facade. The facade builds a WHATWG Request, URL and
 * AbortSignal per call and re-parses its path; these routes hand the parsed body straight to the same
 * tRPC procedures (createCaller: the same normalisation, zod schema, extensionProcedure sign-in through
 * createContext, service and error formatter), so the logic has one code path. What the facade does
 * itself is repeated here: a body-carrying call needs `Content-Type: application/json` (415), the body
 * is the input, and an error answers the formatter's shape with the code's status. Everything around
 * the call (Host and Origin guards, rate limits, body limits, the JSON parser and the "body must be an
 * object" check, security headers) is app-wide Fastify hooks and applies as to every route.
 *
 * Their answers are a few dozen bytes: not compressed (no compression hook runs). Their request lines are
 * quiet (one post a second per meeting would be most of the log): a refused call is logged at info, an
 * accepted one at debug. The OpenAPI document still comes from the procedures.
 */
export function registerTranscriptRoutes(app: App, deps: AppDeps): void {
  for (const { name, call } of CALLS) {
    const procedure = transcriptRouter._def.procedures[name];
    const openapi = (procedure._def.meta as OpenApiMeta | undefined)?.openapi;
    if (openapi?.method !== 'POST') throw new Error(`transcript.${name} is not a POST call of the REST facade`);
    const path = `transcript.${name}`;

    app.post(
      `/v1${openapi.path}`,
      {
        compress: false,
        config: { quietRequestLine: true },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        let ctx: Context | undefined;
        const input = { ...(request.body as object | undefined) };
        try {
          // As the facade: a body-carrying call must say it is JSON (Fastify parses text/plain too).
          const contentType = request.headers['content-type'];
          if (!contentType?.startsWith('application/json')) {
            throw new TRPCError({
              code: 'UNSUPPORTED_MEDIA_TYPE',
              message: contentType ? `Unsupported content-type "${contentType}` : 'Missing content-type header',
            });
          }
          ctx = await createContext(deps, contextRequest(deps, request, reply));
          return await call(createCaller(ctx), input);
        } catch (cause) {
          const error = getTRPCErrorFromUnknown(cause);
          const shape = getErrorShape({ config: transcriptRouter._def._config, error, type: 'mutation', path, input, ctx });
          return reply.status(getHTTPStatusCodeFromError(error)).send({ ...shape, code: error.code });
        }
      },
    );
  }
}
