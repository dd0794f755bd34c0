import { z } from 'zod';
import { createWebhookInputSchema, webhookIdInputSchema, webhookListSchema, webhookSchema } from '@mbox/shared/webhooks';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { sendTestEvent } from './events.js';
import { createWebhook, deleteWebhook, listWebhooks } from './service.js';

const tags = ['webhooks'];

export const webhooksRouter = router({
  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/webhooks', tags, protect: true, summary: 'Your webhooks with their latest deliveries' } })
    .input(z.void())
    .output(webhookListSchema)
    .query(async ({ ctx }) => ({ webhooks: await listWebhooks(ctx.deps, ctx.user.id) })),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhooks',
        tags,
        protect: true,
        summary: 'Register a receiver URL for some of meeting.finished, summary.created, action_item.created and action_item.updated; answers its signing secret',
      },
    })
    .input(createWebhookInputSchema)
    .output(webhookSchema)
    .mutation(({ ctx, input }) => createWebhook(ctx.deps, ctx.user.id, input)),

  delete: authedProcedure
    .meta({ openapi: { method: 'DELETE', path: '/webhooks/{id}', tags, protect: true, summary: 'Delete a webhook and its delivery log' } })
    .input(webhookIdInputSchema)
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => deleteWebhook(ctx.deps, ctx.user.id, input.id)),

  test: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/webhooks/{id}/test', tags, protect: true, summary: 'Queue a signed ping delivery' } })
    .input(webhookIdInputSchema)
    .output(webhookSchema)
    .mutation(({ ctx, input }) => sendTestEvent(ctx.deps, ctx.user.id, input.id)),
});
