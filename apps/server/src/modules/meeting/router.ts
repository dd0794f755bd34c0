import { z } from 'zod';
import {
  meetingDetailSchema,
  meetingGroupsInputSchema,
  meetingGroupsSchema,
  meetingIdSchema,
  meetingListInputSchema,
  meetingMessagesInputSchema,
  meetingMessagesSchema,
  meetingEventSchema,
  meetingSchema,
} from '@mbox/shared';
import { authedProcedure, premiumProcedure, router } from '../../trpc/trpc.js';
import { encryptMeeting } from '../message/service.js';
import { feedLines, feedMeetingChanges } from './live.js';
import { deleteMeeting, findMeetingExists, getMeetingEvents, getMeetingMessages, listMeetingGroups, listMeetings } from './service.js';
import { getMeeting } from './whole-meeting.js';

const tags = ['meetings'];
const idInput = z.strictObject({ id: meetingIdSchema });

export const meetingRouter = router({
  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/meeting-list', tags, protect: true, summary: 'Meetings, newest first' } })
    .input(meetingListInputSchema)
    .output(z.array(meetingSchema))
    .query(({ ctx, input }) => listMeetings(ctx.deps, ctx.user.id, input)),

  grouped: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/meeting-list/grouped',
        tags,
        protect: true,
        summary: "Meetings grouped by day in the user's timezone, newest first",
      },
    })
    .input(meetingGroupsInputSchema)
    .output(meetingGroupsSchema)
    .query(({ ctx, input }) => listMeetingGroups(ctx.deps, ctx.user, input)),

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/meeting/{id}', tags, protect: true, summary: 'A meeting with its messages' } })
    .input(idInput)
    .output(meetingDetailSchema)
    .query(({ ctx, input }) => getMeeting(ctx.deps, ctx.user.id, input.id)),

  /**
   * The web app's check before it opens a meeting's panels: an unknown id (or another user's) answers
   * false rather than 404, so a stale or mistyped link shows one not-found view and no failed requests.
   */
  exists: authedProcedure
    .input(idInput)
    .output(z.object({ exists: z.boolean() }))
    .query(async ({ ctx, input }) => ({ exists: await findMeetingExists(ctx.deps, ctx.user.id, input.id) })),

  messages: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/meeting/{id}/messages',
        tags,
        protect: true,
        summary: 'One page of a meeting\'s messages; without a cursor the top of a finished meeting or the bottom of a live one',
      },
    })
    .input(meetingMessagesInputSchema)
    .output(meetingMessagesSchema)
    .query(({ ctx, input }) => getMeetingMessages(ctx.deps, ctx.user.id, input)),

  events: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/meeting/{id}/events', tags, protect: true, summary: "A meeting's capture gaps (captions off, capture broken), in time order" },
    })
    .input(idInput)
    .output(z.array(meetingEventSchema))
    .query(({ ctx, input }) => getMeetingEvents(ctx.deps, ctx.user.id, input.id)),

  delete: authedProcedure
    .meta({ openapi: { method: 'DELETE', path: '/meeting/{id}', tags, protect: true, summary: 'Delete a meeting' } })
    .input(idInput)
    .output(z.object({ success: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteMeeting(ctx.deps, ctx.user.id, input.id)),

  encrypt: premiumProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/p/meeting/encrypt/{id}',
        tags,
        protect: true,
        summary: 'Encrypt every message of a meeting at rest, and lines that arrive later (premium)',
      },
    })
    .input(idInput)
    .output(z.object({ success: z.literal(true) }))
    .mutation(({ ctx, input }) => encryptMeeting(ctx.deps, ctx.user.id, input.id)),

  onLines: authedProcedure
    .input(z.strictObject({ meetingId: meetingIdSchema }))
    .subscription(({ ctx, input, signal }) => feedLines(ctx.deps, ctx.user.id, input.meetingId, signal)),

  onChanged: authedProcedure
    .input(z.void())
    .subscription(({ ctx, signal }) => feedMeetingChanges(ctx.deps, ctx.user.id, signal)),
});
