import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppDeps } from '../../deps.js';
import { registerDirectRoute } from '../../trpc/direct-route.js';
import { createCallerFactory } from '../../trpc/trpc.js';
import { transcriptRouter } from './router.js';

type App = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>;
type Caller = ReturnType<typeof createCaller>;

const createCaller = createCallerFactory(transcriptRouter);

const CALLS: { name: keyof typeof transcriptRouter._def.procedures & keyof Caller; call: (caller: Caller, input: unknown) => Promise<unknown> }[] = [
  { name: 'ingest', call: (caller, input) => caller.ingest(input as never) },
  { name: 'events', call: (caller, input) => caller.events(input as never) },
  { name: 'end', call: (caller, input) => caller.end(input as never) },
];

/**
 * `POST /v1/transcript/{lines,events,end}`, the extension's calls (one a second per open meeting), as
 * direct routes in front of the REST facade (registerDirectRoute).
 *
 * Their answers are a few dozen bytes: not compressed (no compression hook runs). Their request lines are
 * quiet (one post a second per meeting would be most of the log): a refused call is logged at info, an
 * accepted one at debug.
 */
export function registerTranscriptRoutes(app: App, deps: AppDeps): void {
  for (const { name, call } of CALLS) {
    registerDirectRoute(app, deps, {
      router: transcriptRouter,
      procedure: name,
      path: `transcript.${name}`,
      call: (ctx, input) => call(createCaller(ctx), input),
      compress: false,
      config: { quietRequestLine: true },
    });
  }
}
