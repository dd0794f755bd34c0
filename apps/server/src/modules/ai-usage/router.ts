import { z } from 'zod';
import { aiUsageSchema } from '@mbox/shared';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { getAiUsage } from './service.js';

export const aiUsageRouter = router({
  today: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/ai-usage',
        tags: ['summaries'],
        protect: true,
        summary: "Today's AI generations and LLM tokens of the account, their daily limits and what is left",
      },
    })
    .input(z.void())
    .output(aiUsageSchema)
    .query(({ ctx }) => getAiUsage(ctx.deps, ctx.user)),
});
