import { askAllAnswerSchema, askAllInputSchema, askInputSchema } from '@mbox/shared';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { askAll, streamAllMeetings } from './all-meetings.js';
import { streamAnswer } from './service.js';

const tags = ['ask'];

export const askRouter = router({
  /**
   * Not in the REST facade: SSE through the tRPC client, as summary.generateStream. Events are
   * typed by AskStreamEvent (docs/ask.md).
   */
  stream: authedProcedure
    .input(askInputSchema)
    .subscription(({ ctx, input, signal }) => streamAnswer(ctx.deps, ctx.user, input, signal)),
  /** POST /v1/ask: the whole answer across meetings in one body; allStream is the same answer streamed. */
  all: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/ask',
        tags,
        protect: true,
        summary:
          "Ask a question across all of the user's meetings: an answer whose points cite meeting, time and line; a date phrase or from/to restricts the meetings (encrypted meetings are left out)",
      },
      // A question changes nothing (it is a POST for its body): a read-scoped access token may ask.
      scope: 'read',
    })
    .input(askAllInputSchema)
    .output(askAllAnswerSchema)
    .mutation(({ ctx, input, signal }) => askAll(ctx.deps, ctx.user, input, { signal })),
  /** SSE through the tRPC client; events typed by AskAllStreamEvent (docs/ask.md). */
  allStream: authedProcedure
    .input(askAllInputSchema)
    .subscription(({ ctx, input, signal }) => streamAllMeetings(ctx.deps, ctx.user, input, signal)),
});
