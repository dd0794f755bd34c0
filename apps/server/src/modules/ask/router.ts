import { askInputSchema } from '@mbox/shared';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { streamAnswer } from './service.js';

export const askRouter = router({
  /**
   * Not in the REST facade: SSE through the tRPC client, as summary.generateStream. Events are
   * typed by AskStreamEvent (docs/ask.md).
   */
  stream: authedProcedure
    .input(askInputSchema)
    .subscription(({ ctx, input, signal }) => streamAnswer(ctx.deps, ctx.user, input, signal)),
});
