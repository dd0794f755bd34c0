import { searchInputSchema, searchOutputSchema } from '@mbox/shared';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { search } from './service.js';

const tags = ['search'];

export const searchRouter = router({
  query: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/search',
        tags,
        protect: true,
        summary: "Search the user's meetings: transcript lines, comments, cleanups, titles, participants and summaries, best first (encrypted meetings are not searched)",
      },
    })
    .input(searchInputSchema)
    .output(searchOutputSchema)
    .query(({ ctx, input }) => search(ctx.deps, ctx.user.id, input)),
});
