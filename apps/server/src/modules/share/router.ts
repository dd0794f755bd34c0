import { z } from 'zod';
import {
  shareLinkSchema,
  shareMeetingInputSchema,
  shareStatusSchema,
  sharedMeetingInputSchema,
  sharedMeetingSchema,
} from '@mbox/shared';
import { authedProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import { createShareLink, getShareStatus, revokeShareLink, viewSharedMeeting } from './service.js';

const tags = ['share'];

export const shareRouter = router({
  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/meeting/{id}/share',
        tags,
        protect: true,
        summary: 'Create a read-only link to the meeting; a new link replaces the previous one',
        description: 'Anyone with the link sees the title, date, participants, transcript and summaries. An encrypted meeting cannot be shared (412).',
      },
    })
    .input(shareMeetingInputSchema)
    .output(shareLinkSchema)
    .mutation(({ ctx, input }) => createShareLink(ctx.deps, ctx.user.id, input.id)),

  revoke: authedProcedure
    .meta({ openapi: { method: 'DELETE', path: '/meeting/{id}/share', tags, protect: true, summary: "Stop sharing the meeting: its link stops working" } })
    .input(shareMeetingInputSchema)
    .output(z.object({ success: z.literal(true) }))
    .mutation(({ ctx, input }) => revokeShareLink(ctx.deps, ctx.user.id, input.id)),

  status: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/meeting/{id}/share', tags, protect: true, summary: 'Whether the meeting has a live share link, and since when' } })
    .input(shareMeetingInputSchema)
    .output(shareStatusSchema)
    .query(({ ctx, input }) => getShareStatus(ctx.deps, ctx.user.id, input.id)),

  // Public: the token is the credential. Rate-limited per client address (RATE_LIMIT_SHARED).
  view: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/shared/{token}',
        tags,
        protect: false,
        summary: 'A shared meeting, read-only, without signing in',
        description: 'Unknown or revoked links answer 404. Limited per client address (RATE_LIMIT_SHARED, default 60 a minute): 429 with Retry-After.',
      },
    })
    .input(sharedMeetingInputSchema)
    .output(sharedMeetingSchema)
    .query(({ ctx, input }) => viewSharedMeeting(ctx.deps, input.token)),
});
