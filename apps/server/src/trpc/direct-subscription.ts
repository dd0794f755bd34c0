import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { TRPCError, type AnyRouter } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { getErrorShape } from '@trpc/server/unstable-core-do-not-import';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { AppDeps } from '../deps.js';
import { LiveFeed } from '../events/live-feed.js';
import { contextRequest, createContext, type Context } from './context.js';
import { trpcErrorOf } from './trpc.js';

type App = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>;

/** Events a subscriber has not read yet, at most; one that falls further behind is let go and catches up on reconnect. */
export const MAX_UNSENT_EVENT_BYTES = 1024 * 1024;

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

export interface DirectSubscription<TRouter extends AnyRouter> {
  /** The app's router: its error formatter shapes the errors sent. */
  router: TRouter;
  /** The subscription's path in it, e.g. 'meeting.onLines'. */
  path: string;
  /** Makes the call through a tRPC caller, so the procedure ladder and input schema run as for tRPC; it answers a LiveFeed. */
  call: (ctx: Context, input: unknown, signal: AbortSignal) => Promise<AsyncIterable<unknown>>;
}

/**
 * A tRPC subscription served over SSE by a plain Fastify route in front of the tRPC plugin, for the
 * ones a client holds open as long as a screen is open. tRPC reads a subscription as an async iterable
 * through an SSE stream that Fastify reads in turn: every layer keeps promises pending from one event
 * to the next, per subscriber, and at a thousand subscribers young collections promote them until full
 * collections stall the server (docs/performance.md). Here the procedure's LiveFeed hands each value to
 * a callback that writes its event to the response at once.
 *
 * The wire is tRPC's, so the web app's httpSubscriptionLink reads it unchanged: `connected` (once the
 * feed listens), then each value as `data:`, `return` when the feed ends, and a failure (sign-in,
 * input, not found) as `serialized-error` carrying the formatter's shape, all with status 200. Other
 * methods still reach tRPC, which refuses them; the app-wide hooks (Host and Origin guards, security
 * headers, cookies) apply as to every route.
 */
export function registerDirectSubscription<TRouter extends AnyRouter>(app: App, deps: AppDeps, route: DirectSubscription<TRouter>): void {
  app.get(`/trpc/${route.path}`, { compress: false }, async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Record<string, string | string[] | undefined>;
    let ctx: Context | undefined;
    let input: unknown;
    const errorShape = (cause: unknown) =>
      getErrorShape({ config: route.router._def._config, error: trpcErrorOf(cause), type: 'subscription', path: route.path, input, ctx });
    if (query.batch !== undefined) {
      const error = new TRPCError({ code: 'BAD_REQUEST', message: 'Cannot batch subscription calls' });
      return reply.status(getHTTPStatusCodeFromError(error)).send([{ error: errorShape(error) }]);
    }

    const left = new AbortController();
    reply.raw.once('close', () => left.abort());
    let feed: LiveFeed<unknown> | null = null;
    let refusal: unknown = null;
    try {
      input = readInput(query.input);
      // Before the answer starts: signing in may set cookies.
      ctx = await createContext(deps, contextRequest(deps, request, reply));
      const answer = await route.call(ctx, input, left.signal);
      if (!(answer instanceof LiveFeed)) throw new Error(`${route.path} answers no LiveFeed`);
      feed = answer;
    } catch (cause) {
      refusal = cause;
    }

    const events = new Readable({ read() {} });
    const send = (event: string | null, data: string) => {
      if (left.signal.aborted) return;
      events.push(event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`);
      if (events.readableLength > MAX_UNSENT_EVENT_BYTES) {
        left.abort();
        events.destroy();
      }
    };
    const end = () => {
      if (!left.signal.aborted) events.push(null);
    };
    // The web app reads what came before once told it is connected, so that waits until the feed listens.
    let connected = false;
    const connect = () => {
      if (!connected) send('connected', '{}');
      connected = true;
    };
    if (feed) {
      feed.follow((value) => send(null, JSON.stringify(value)), connect).then(
        () => {
          connect();
          send('return', '');
        },
        (cause: unknown) => {
          // Failures of the call itself were logged by the procedure ladder; these came after it.
          if (trpcErrorOf(cause).code === 'INTERNAL_SERVER_ERROR') request.log.error({ err: cause, path: route.path }, 'subscription failed');
          connect();
          send('serialized-error', JSON.stringify(errorShape(cause)));
        },
      ).finally(end);
    } else {
      connect();
      send('serialized-error', JSON.stringify(errorShape(refusal)));
      end();
    }
    return reply.headers(SSE_HEADERS).send(events);
  });
}

/** The `input` query parameter as tRPC reads it: JSON, its first value when given more than once. */
function readInput(raw: string | string[] | undefined): unknown {
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new TRPCError({ code: 'BAD_REQUEST', cause });
  }
}
