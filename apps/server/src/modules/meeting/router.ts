import { z } from 'zod';
import {
  meetingDetailSchema,
  meetingIdSchema,
  meetingListInputSchema,
  meetingSchema,
} from '@mbox/shared';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { deleteMeeting, getMeeting, listMeetings, watchLines, watchMeetings } from './service.js';

const tags = ['meetings'];
const idInput = z.strictObject({ id: meetingIdSchema });

export const meetingRouter = router({
  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/meeting-list', tags, protect: true, summary: 'Meetings, newest first' } })
    .input(meetingListInputSchema)
    .output(z.array(meetingSchema))
    .query(({ ctx, input }) => listMeetings(ctx.deps, ctx.user.id, input)),

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/meeting/{id}', tags, protect: true, summary: 'A meeting with its messages' } })
    .input(idInput)
    .output(meetingDetailSchema)
    .query(({ ctx, input }) => getMeeting(ctx.deps, ctx.user.id, input.id)),

  delete: authedProcedure
    .meta({ openapi: { method: 'DELETE', path: '/meeting/{id}', tags, protect: true, summary: 'Delete a meeting' } })
    .input(idInput)
    .output(z.object({ success: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteMeeting(ctx.deps, ctx.user.id, input.id)),

  onLines: authedProcedure
    .input(z.strictObject({ meetingId: meetingIdSchema }))
    .subscription(({ ctx, input, signal }) => watchLines(ctx.deps, ctx.user.id, input.meetingId, signal)),

  onChanged: authedProcedure
    .input(z.void())
    .subscription(({ ctx, signal }) => watchMeetings(ctx.deps, ctx.user.id, signal)),
});
