import { z } from 'zod';
import {
  actionItemFacetsSchema,
  actionItemIdSchema,
  actionItemListInputSchema,
  actionItemPageSchema,
  actionItemSchema,
  fromLastTimeInputSchema,
  fromLastTimeSchema,
  markActionItemDoneInputSchema,
  updateActionItemInputSchema,
} from '@mbox/shared';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  actionItemFacets,
  getActionItem,
  listActionItems,
  markActionItemDone,
  openItemsFromLastTime,
  updateActionItem,
} from './service.js';

const tags = ['action-items'];

export const actionItemsRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/action-items',
        tags,
        protect: true,
        summary: "The user's action items across meetings, newest meeting first; filter by owner, status, meeting and due days, a page at a time",
      },
    })
    .input(actionItemListInputSchema)
    .output(actionItemPageSchema)
    .query(({ ctx, input }) => listActionItems(ctx.deps, ctx.user.id, input)),

  facets: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/action-items/facets', tags, protect: true, summary: 'The owners and meetings the action items have (the filter choices)' },
    })
    .input(z.void())
    .output(actionItemFacetsSchema)
    .query(({ ctx }) => actionItemFacets(ctx.deps, ctx.user.id)),

  fromLastTime: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/action-items/from-last-time',
        tags,
        protect: true,
        summary: 'Open from last time: the open items of the latest earlier meeting with the same Meet code or the same participants',
      },
    })
    .input(fromLastTimeInputSchema)
    .output(fromLastTimeSchema)
    .query(({ ctx, input }) => openItemsFromLastTime(ctx.deps, ctx.user.id, input.meetingId)),

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/action-items/{id}', tags, protect: true, summary: 'One action item' } })
    .input(z.strictObject({ id: actionItemIdSchema }))
    .output(actionItemSchema)
    .query(({ ctx, input }) => getActionItem(ctx.deps, ctx.user.id, input.id)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/action-items/{id}',
        tags,
        protect: true,
        summary: "Change an action item's text, owner, due day (null clears it) or status; edited items are never rewritten by extraction",
      },
    })
    .input(updateActionItemInputSchema)
    .output(actionItemSchema)
    .mutation(({ ctx, input: { id, ...patch } }) => updateActionItem(ctx.deps, ctx.user.id, id, patch)),

  markDone: authedProcedure
    .meta({
      openapi: { method: 'POST', path: '/action-items/{id}/done', tags, protect: true, summary: 'Mark an action item done (or open again with done: false)' },
    })
    .input(markActionItemDoneInputSchema)
    .output(actionItemSchema)
    .mutation(({ ctx, input }) => markActionItemDone(ctx.deps, ctx.user.id, input.id, input.done)),
});
