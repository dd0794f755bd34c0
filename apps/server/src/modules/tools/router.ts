import {
  summarizeInputSchema,
  summarizeOutputSchema,
  summarizeStreamInputSchema,
  youTubeInfoInputSchema,
  youTubeInfoSchema,
} from '@mbox/shared';
import { authedProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import { streamSummarize, summarize, visitorSummarizerQuota, youTubeInfo } from './service.js';

const tags = ['tools'];
const limits =
  "At most 10 a day per account (Basic; counted when an LLM writes them, and within the account's daily LLM token budget) " +
  'or per client address (public); premium is unlimited. ' +
  'Bursts are limited per client address (RATE_LIMIT_SUMMARIZER, default 20 a minute): 429 with Retry-After.';

export const toolsRouter = router({
  summary: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/utils/summary',
        tags,
        protect: true,
        summary: 'Summarise a text or the web page of a link',
        description: `Give either text or link. ${limits}`,
      },
    })
    .input(summarizeInputSchema)
    .output(summarizeOutputSchema)
    .mutation(({ ctx, input }) => summarize(ctx.deps, ctx, 'summary', input)),

  youtube: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/utils/youtube',
        tags,
        protect: true,
        summary: "Summarise a YouTube video from its captions",
        description: `link: youtube.com/watch?v=, youtu.be/, /shorts/ or /embed/ links. ${limits}`,
      },
    })
    .input(summarizeInputSchema)
    .output(summarizeOutputSchema)
    .mutation(({ ctx, input }) => summarize(ctx.deps, ctx, 'youtube', input)),

  youtubeInfo: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/utils/youtube',
        tags,
        protect: true,
        summary: "A YouTube video's title, channel, length and whether it has captions (not counted in the daily limit)",
      },
    })
    .input(youTubeInfoInputSchema)
    .output(youTubeInfoSchema)
    .query(({ ctx, input }) => youTubeInfo(ctx.deps, input.link)),

  publicSummary: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/public/utils/summary',
        tags,
        protect: false,
        summary: 'Summarise a text or the web page of a link, without signing in',
        description: `Give either text or link. ${limits}`,
      },
    })
    .input(summarizeInputSchema)
    .use(visitorSummarizerQuota)
    .output(summarizeOutputSchema)
    .mutation(({ ctx, input }) => summarize(ctx.deps, ctx, 'summary', input)),

  publicYoutube: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/public/utils/youtube',
        tags,
        protect: false,
        summary: 'Summarise a YouTube video from its captions, without signing in',
        description: `link: youtube.com/watch?v=, youtu.be/, /shorts/ or /embed/ links. ${limits}`,
      },
    })
    .input(summarizeInputSchema)
    .use(visitorSummarizerQuota)
    .output(summarizeOutputSchema)
    .mutation(({ ctx, input }) => summarize(ctx.deps, ctx, 'youtube', input)),

  /** Not in the REST facade: SSE through the tRPC client, signed in or not. Events: SummarizeStreamEvent. */
  summarizeStream: publicProcedure
    .input(summarizeStreamInputSchema)
    .subscription(({ ctx, input, signal }) => streamSummarize(ctx.deps, ctx, input.mode, input.request, signal)),
});
