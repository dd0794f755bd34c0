import { summaryListInputSchema, summaryListSchema } from '@mbox/shared';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { listSummaries } from './service.js';

const tags = ['summaries'];

export const summaryRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/summary-list/{id}',
        tags,
        protect: true,
        summary: 'Summaries of a meeting, and whether it is too small to summarise',
      },
    })
    .input(summaryListInputSchema)
    .output(summaryListSchema)
    .query(({ ctx, input }) => listSummaries(ctx.deps, ctx.user.id, input.id)),
});
