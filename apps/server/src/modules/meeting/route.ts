import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { meetingGroupsInputSchema, meetingIdSchema } from '@mbox/shared';
import type { AppDeps } from '../../deps.js';
import { registerDirectRoute } from '../../trpc/direct-route.js';
import { registerDirectSubscription } from '../../trpc/direct-subscription.js';
import { authedProcedure, createCallerFactory, router } from '../../trpc/trpc.js';
import { meetingRouter } from './router.js';
import { listMeetingGroupsJson } from './service.js';
import { meetingDetailJson, readMeetingInPages } from './whole-meeting.js';

type App = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>;

/** meeting.grouped answering its JSON text: the same ladder, input schema and service, no parse and serialise round. */
const groupedJsonRouter = router({
  meeting: router({
    grouped: authedProcedure.input(meetingGroupsInputSchema).query(({ ctx, input }) => listMeetingGroupsJson(ctx.deps, ctx.user, input)),
  }),
});
const createGroupedCaller = createCallerFactory(groupedJsonRouter);

/** meeting.get answering its JSON text as a stream, a page of lines at a time. */
const meetingJsonRouter = router({
  meeting: router({
    get: authedProcedure
      .input(z.strictObject({ id: meetingIdSchema }))
      .query(async ({ ctx, input }) => Readable.from(meetingDetailJson(await readMeetingInPages(ctx.deps, ctx.user.id, input.id)))),
  }),
});
const createMeetingJsonCaller = createCallerFactory(meetingJsonRouter);
const createMeetingCaller = createCallerFactory(meetingRouter);

/**
 * The REST facade's most read meeting calls, as direct routes in front of it (registerDirectRoute):
 * - `GET /v1/meeting-list/grouped` (up to 1,000 meetings, a home list), answering the text the
 *   service put together: the facade would parse it, check it against meetingGroupsSchema and serialise
 *   it again. tRPC's meeting.grouped still checks it.
 * - `GET /v1/meeting/{id}`, a whole meeting (up to MAX_LINES_PER_MEETING lines), streamed a page of
 *   lines at a time (readMeetingInPages), each page checked against the shared schemas: the facade
 *   would hold the whole answer, parsed, checked and serialised, at once. tRPC's meeting.get still
 *   answers it whole.
 * - `GET /v1/meeting/{id}/messages`, a transcript page (what an API client reads a meeting by): the
 *   facade's WHATWG Request, URL, abort signal and path matching were about a third of a page's CPU.
 *
 * and its two subscriptions, held open as long as a meeting (meeting.onLines) or the app
 * (meeting.onChanged) is open, as direct SSE routes (registerDirectSubscription).
 */
export function registerMeetingRoutes(app: App, deps: AppDeps): void {
  registerDirectRoute(app, deps, {
    router: meetingRouter,
    procedure: 'grouped',
    path: 'meeting.grouped',
    call: (ctx, input) => createGroupedCaller(ctx).meeting.grouped(input as never),
    answersJsonText: true,
  });
  registerDirectRoute(app, deps, {
    router: meetingRouter,
    procedure: 'get',
    path: 'meeting.get',
    call: (ctx, input) => createMeetingJsonCaller(ctx).meeting.get(input as never),
    answersJsonText: true,
  });
  registerDirectRoute(app, deps, {
    router: meetingRouter,
    procedure: 'messages',
    path: 'meeting.messages',
    call: (ctx, input) => createMeetingCaller(ctx).messages(input as never),
  });
  registerDirectSubscription(app, deps, {
    router: meetingRouter,
    path: 'meeting.onLines',
    call: (ctx, input, signal) => createMeetingCaller(ctx, { signal }).onLines(input as never),
  });
  registerDirectSubscription(app, deps, {
    router: meetingRouter,
    path: 'meeting.onChanged',
    call: (ctx, input, signal) => createMeetingCaller(ctx, { signal }).onChanged(input as never),
  });
}
