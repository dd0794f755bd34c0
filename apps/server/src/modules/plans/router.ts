import { z } from 'zod';
import { plansSchema } from '@mbox/shared';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { listPlans } from './service.js';

export const plansRouter = router({
  list: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/plans', tags: ['plans'], protect: true, summary: 'Plans, the one in use flagged current' },
    })
    .input(z.void())
    .output(plansSchema)
    .query(({ ctx }) => listPlans(ctx.deps, ctx.user)),
});
