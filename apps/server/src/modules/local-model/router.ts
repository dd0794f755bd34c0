import { z } from 'zod';
import { localModelActivateInputSchema, localModelDownloadInputSchema, localModelStatusSchema } from '@mbox/shared';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { activateModel, assertAdmin, cancelModelDownload, localModelStatus, startModelDownload } from './service.js';

const tags = ['ai'];

/** Settings → AI: the deployment's AI engine and local model, for its administrators (docs/ai.md, "Local model"). */
export const localModelRouter = router({
  status: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/admin/ai', tags, protect: true, summary: 'The engine in use, the local model, its catalogue and download' } })
    .input(z.void())
    .output(localModelStatusSchema)
    .query(({ ctx }) => {
      assertAdmin(ctx.deps, ctx.user);
      return localModelStatus(ctx.deps);
    }),

  download: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/admin/ai/download', tags, protect: true, summary: 'Downloads a catalogue model, or a GGUF by URL, into LOCAL_MODEL_DIR' } })
    .input(localModelDownloadInputSchema)
    .output(localModelStatusSchema)
    .mutation(({ ctx, input }) => {
      assertAdmin(ctx.deps, ctx.user);
      return startModelDownload(ctx.deps, input);
    }),

  cancelDownload: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/admin/ai/download/cancel', tags, protect: true, summary: 'Cancels the running model download (its part is kept to resume)' } })
    .input(z.void())
    .output(localModelStatusSchema)
    .mutation(({ ctx }) => {
      assertAdmin(ctx.deps, ctx.user);
      return cancelModelDownload(ctx.deps);
    }),

  activate: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/admin/ai/activate', tags, protect: true, summary: 'Switches the local model to an installed GGUF, without a restart' } })
    .input(localModelActivateInputSchema)
    .output(localModelStatusSchema)
    .mutation(({ ctx, input }) => {
      assertAdmin(ctx.deps, ctx.user);
      return activateModel(ctx.deps, input.file);
    }),
});
