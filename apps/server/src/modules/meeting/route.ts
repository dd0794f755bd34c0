import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { meetingGroupsInputSchema, meetingIdSchema } from '@mbox/shared';
import type { AppDeps } from '../../deps.js';
import type { RestRouteOptions } from '../../trpc/rest-adapter.js';
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
 * The most read meeting calls of the REST API, answered as text (trpc/rest-adapter.ts):
 * - `GET /v1/meeting-list/grouped` (up to 1,000 meetings, a home list), answering the text the
 *   service put together, rather than parsing it, checking it against meetingGroupsSchema and
 *   serialising it again. tRPC's meeting.grouped still checks it.
 * - `GET /v1/meeting/{id}`, a whole meeting (up to MAX_LINES_PER_MEETING lines), streamed a page of
 *   lines at a time (readMeetingInPages), each page checked against the shared schemas, rather than
 *   held whole, parsed, checked and serialised at once. tRPC's meeting.get still answers it whole.
 */
export const meetingRestRoutes: Record<string, RestRouteOptions> = {
  'meeting.grouped': { call: (ctx, input) => createGroupedCaller(ctx).meeting.grouped(input as never), answersJsonText: true },
  'meeting.get': { call: (ctx, input) => createMeetingJsonCaller(ctx).meeting.get(input as never), answersJsonText: true },
};

/**
 * The meeting's two subscriptions, held open as long as a meeting (meeting.onLines) or the app
 * (meeting.onChanged) is open, as direct SSE routes (registerDirectSubscription).
 */
export function registerMeetingSubscriptions(app: App, deps: AppDeps): void {
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
