import { z } from 'zod';
import { changelogSchema } from '@mbox/shared';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { listChangelog } from './service.js';

export const changelogRouter = router({
  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/changelog', tags: ['changelog'], protect: true, summary: 'Release history, newest first' } })
    .input(z.void())
    .output(changelogSchema)
    .query(() => listChangelog()),
});
