import {
  endMeetingInputSchema,
  endMeetingOutputSchema,
  ingestEventsInputSchema,
  ingestEventsOutputSchema,
  ingestLinesInputSchema,
  ingestLinesOutputSchema,
  searchConfigForAcceptLanguage,
} from '@mbox/shared';
import { extensionProcedure, router } from '../../trpc/trpc.js';
import { endMeeting, ingestEvents, ingestLines } from './service.js';

const tags = ['transcript'];

export const transcriptRouter = router({
  ingest: extensionProcedure
    .meta({ openapi: { method: 'POST', path: '/transcript/lines', tags, protect: true, summary: 'Store caption lines' } })
    .input(ingestLinesInputSchema)
    .output(ingestLinesOutputSchema)
    .mutation(({ ctx, input }) => ingestLines(ctx.deps, ctx.user.id, input, searchConfigForAcceptLanguage(ctx.acceptLanguage))),

  events: extensionProcedure
    .meta({ openapi: { method: 'POST', path: '/transcript/events', tags, protect: true, summary: 'Store capture gaps (captions off, capture broken)' } })
    .input(ingestEventsInputSchema)
    .output(ingestEventsOutputSchema)
    .mutation(({ ctx, input }) => ingestEvents(ctx.deps, ctx.user.id, input, searchConfigForAcceptLanguage(ctx.acceptLanguage))),

  end: extensionProcedure
    .meta({ openapi: { method: 'POST', path: '/transcript/end', tags, protect: true, summary: 'Mark a meeting finished' } })
    .input(endMeetingInputSchema)
    .output(endMeetingOutputSchema)
    .mutation(({ ctx, input }) => endMeeting(ctx.deps, ctx.user.id, input)),
});
