import { z } from 'zod';
import { meetingIdSchema, meetingStatsSchema, talkTimeSchema } from '@mbox/shared';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { getMeetingStats, getTalkTime } from './service.js';

const tags = ['stats'];

export const statsRouter = router({
  dashboard: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/stats', tags, protect: true, summary: "Dashboard figures in the user's time zone" },
    })
    .input(z.void())
    .output(meetingStatsSchema)
    .query(({ ctx }) => getMeetingStats(ctx.deps, ctx.user)),

  talkTime: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/stats/talk-time/{id}', tags, protect: true, summary: 'Talk time per speaker in a meeting' },
    })
    .input(z.strictObject({ id: meetingIdSchema }))
    .output(talkTimeSchema)
    .query(({ ctx, input }) => getTalkTime(ctx.deps, ctx.user.id, input.id)),
});
