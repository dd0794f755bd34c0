import { z } from 'zod';
import {
  aiCapabilitiesSchema,
  generateSummaryInputSchema,
  regenerateSummaryInputSchema,
  regenerateSummaryWithSettingsInputSchema,
  summaryListInputSchema,
  summaryListSchema,
  summarySchema,
  translateSummaryInputSchema,
  translateSummaryOutputSchema,
} from '@mbox/shared';
import { authedProcedure, premiumProcedure, router } from '../../trpc/trpc.js';
import { generateSummary, regenerateSummary, streamSummary, translateSummary } from './generation.js';
import { listSummaries } from './service.js';

const tags = ['summaries'];

export const summaryRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/summary-list/{id}',
        tags,
        protect: true,
        summary: 'Summaries of a meeting, and whether it is too small to summarise',
      },
    })
    .input(summaryListInputSchema)
    .output(summaryListSchema)
    .query(({ ctx, input }) => listSummaries(ctx.deps, ctx.user.id, input.id)),

  generate: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/prompts',
        tags,
        protect: true,
        summary: "Generate and store the meeting's summary of a prompt type, or answer a question about it (promptKey 'custom', premium)",
      },
    })
    .input(generateSummaryInputSchema)
    .output(summarySchema)
    .mutation(({ ctx, input }) => generateSummary(ctx.deps, ctx.user, input)),

  /** Not in the REST facade: SSE through the tRPC client. Events are typed by SummaryStreamEvent. */
  generateStream: authedProcedure
    // It stores the summary, as generate does: a personal access token needs the write scope.
    .meta({ scope: 'write' })
    .input(generateSummaryInputSchema)
    .subscription(({ ctx, input, signal }) => streamSummary(ctx.deps, ctx.user, input, signal)),

  regenerate: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/prompts/{summaryKey}',
        tags,
        protect: true,
        summary: "Regenerate a stored summary (summaryKey is its docId) with the user's default settings",
      },
    })
    .input(regenerateSummaryInputSchema)
    .output(summarySchema)
    .mutation(({ ctx, input }) => regenerateSummary(ctx.deps, ctx.user, input)),

  regenerateWithSettings: premiumProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/p/prompts/{summaryKey}',
        tags,
        protect: true,
        summary: 'Regenerate a stored summary (summaryKey is its docId) with depth, lengths and language (premium)',
      },
    })
    .input(regenerateSummaryWithSettingsInputSchema)
    .output(summarySchema)
    .mutation(({ ctx, input }) => regenerateSummary(ctx.deps, ctx.user, input, input.settings)),

  /** What the web app offers: translation needs an LLM (the offline engine cannot translate). */
  capabilities: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/summary-capabilities',
        tags,
        protect: true,
        summary: 'Whether the server has an LLM: without one, translation is refused (412) and not offered',
      },
    })
    .input(z.void())
    .output(aiCapabilitiesSchema)
    .query(({ ctx }) => ({ llmConfigured: ctx.deps.ai.isLlmConfigured, engine: ctx.deps.ai.engine })),

  translate: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/translate',
        tags,
        protect: true,
        summary: "A summary's text in one of the 29 languages; stored and reused ('en' is the original)",
      },
    })
    .input(translateSummaryInputSchema)
    .output(translateSummaryOutputSchema)
    .mutation(({ ctx, input }) => translateSummary(ctx.deps, ctx.user, input)),
});
