import {
  aiFixMessageOutputSchema,
  commentMessageInputSchema,
  markMessageInputSchema,
  messageIdInputSchema,
  messageSchema,
} from '@mbox/shared';
import { authedProcedure, premiumProcedure, router } from '../../trpc/trpc.js';
import { aiFixMessage, commentMessage, encryptMessage, markMessage } from './service.js';

const tags = ['messages'];

export const messageRouter = router({
  mark: authedProcedure
    .meta({ openapi: { method: 'PUT', path: '/message/mark/{id}', tags, protect: true, summary: 'Store the marks of a message' } })
    .input(markMessageInputSchema)
    .output(messageSchema)
    .mutation(({ ctx, input }) => markMessage(ctx.deps, ctx.user.id, input.id, input.marks)),

  comment: authedProcedure
    .meta({ openapi: { method: 'PUT', path: '/message/comment/{id}', tags, protect: true, summary: 'Comment on a message (empty removes it)' } })
    .input(commentMessageInputSchema)
    .output(messageSchema)
    .mutation(({ ctx, input }) => commentMessage(ctx.deps, ctx.user.id, input.id, input.comment)),

  encrypt: premiumProcedure
    .meta({ openapi: { method: 'PUT', path: '/p/message/encrypt/{id}', tags, protect: true, summary: 'Encrypt a message at rest (premium)' } })
    .input(messageIdInputSchema)
    .output(messageSchema)
    .mutation(({ ctx, input }) => encryptMessage(ctx.deps, ctx.user.id, input.id)),

  aiFix: premiumProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/p/message/ai-fix/{id}',
        tags,
        protect: true,
        summary: 'Store a cleaned-up text of a message in aiFixed, beside the original (premium)',
      },
    })
    .input(messageIdInputSchema)
    .output(aiFixMessageOutputSchema)
    .mutation(({ ctx, input }) => aiFixMessage(ctx.deps, ctx.user, input.id)),
});
