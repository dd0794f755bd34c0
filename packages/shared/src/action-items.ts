import { z } from 'zod';
import { calendarDaySchema } from './days.js';
import { meetingIdSchema } from './meeting.js';

/** The action-item ledger (docs/action-items.md): every meeting's tasks, with owner, due day and status. */

export const ACTION_ITEM_STATUSES = ['open', 'done'] as const;
export const actionItemStatusSchema = z.enum(ACTION_ITEM_STATUSES, {
  error: () => `Unknown status: expected one of ${ACTION_ITEM_STATUSES.join(', ')}`,
});
export type ActionItemStatus = z.infer<typeof actionItemStatusSchema>;

export const ACTION_ITEM_TEXT_MAX = 500;
export const ACTION_ITEM_OWNER_MAX = 100;
export const ACTION_ITEM_LIST_LIMIT_DEFAULT = 50;
export const ACTION_ITEM_LIST_LIMIT_MAX = 200;
/** The owner of a task nobody took (the engine's word for it). */
export const UNASSIGNED_OWNER = 'Unassigned';

export const actionItemIdSchema = z.string().trim().min(1).max(64);

const actionItemTextSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty: say what is to be done')
  .max(ACTION_ITEM_TEXT_MAX, `must be at most ${ACTION_ITEM_TEXT_MAX} characters`);
const actionItemOwnerSchema = z
  .string()
  .trim()
  .min(1, `must not be empty: name who does it, or "${UNASSIGNED_OWNER}"`)
  .max(ACTION_ITEM_OWNER_MAX, `must be at most ${ACTION_ITEM_OWNER_MAX} characters`);

/** The meeting an item belongs to, as the ledger shows it. */
export const actionItemMeetingSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Epoch ms. */
  startedAt: z.number(),
});
export type ActionItemMeeting = z.infer<typeof actionItemMeetingSchema>;

/** The transcript line an item was read from: opens as `/<meetingId>?line=<messageId>`. */
export const actionItemSourceSchema = z.object({
  messageId: z.string(),
  speaker: z.string(),
  /** Epoch ms. */
  spokenAt: z.number(),
});

export const actionItemSchema = z.object({
  id: z.string(),
  meeting: actionItemMeetingSchema,
  text: z.string(),
  owner: z.string(),
  /** The due day (YYYY-MM-DD), or null when none was said or set. */
  due: z.string().nullable(),
  status: actionItemStatusSchema,
  /** Epoch ms when it was marked done; null while open. */
  doneAt: z.number().nullable(),
  /** Null when the meeting's Action Items cited no line for it. */
  source: actionItemSourceSchema.nullable(),
  /** Its owner changed its text, owner or due day: a meeting ended again never rewrites it. */
  edited: z.boolean(),
  /** Epoch ms. */
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type ActionItem = z.infer<typeof actionItemSchema>;

/** actionItems.list / GET /v1/action-items: filters combine (all must hold); newest meeting first. */
export const actionItemListInputSchema = z
  .strictObject({
    /** The owner as written on the item, letter case aside. */
    owner: actionItemOwnerSchema.optional(),
    status: actionItemStatusSchema.optional(),
    meetingId: meetingIdSchema.optional(),
    /** Items due on or after this day (items without a due day are left out when either bound is given). */
    dueFrom: calendarDaySchema.optional(),
    /** Items due on or before this day. */
    dueTo: calendarDaySchema.optional(),
    /** `nextCursor` of the previous page. */
    cursor: z.string().trim().min(1).max(64).optional(),
    limit: z.coerce.number().int().min(1).max(ACTION_ITEM_LIST_LIMIT_MAX).default(ACTION_ITEM_LIST_LIMIT_DEFAULT),
  })
  .refine((input) => !input.dueFrom || !input.dueTo || input.dueFrom <= input.dueTo, {
    path: ['dueTo'],
    message: 'must not be before dueFrom',
  });
export type ActionItemListInput = z.input<typeof actionItemListInputSchema>;
export type ActionItemFilter = z.output<typeof actionItemListInputSchema>;

export const actionItemPageSchema = z.object({
  items: z.array(actionItemSchema),
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
});
export type ActionItemPage = z.infer<typeof actionItemPageSchema>;

/** What the ledger's filters offer: the owners and the meetings its items have. */
export const actionItemFacetsSchema = z.object({
  owners: z.array(z.string()),
  meetings: z.array(actionItemMeetingSchema),
});
export type ActionItemFacets = z.infer<typeof actionItemFacetsSchema>;

/** The changes of actionItems.update; `due: null` clears the due day. None changes nothing (the item is answered as it is). */
export const actionItemPatchSchema = z.strictObject({
  text: actionItemTextSchema.optional(),
  owner: actionItemOwnerSchema.optional(),
  due: calendarDaySchema.nullable().optional(),
  status: actionItemStatusSchema.optional(),
});
export type ActionItemPatch = z.infer<typeof actionItemPatchSchema>;

/** actionItems.update / PATCH /v1/action-items/{id} */
export const updateActionItemInputSchema = actionItemPatchSchema.extend({ id: actionItemIdSchema });
export type UpdateActionItemInput = z.input<typeof updateActionItemInputSchema>;

/** actionItems.markDone / POST /v1/action-items/{id}/done: done (default) or open again. */
export const markActionItemDoneInputSchema = z.strictObject({
  id: actionItemIdSchema,
  done: z.boolean().default(true),
});
export type MarkActionItemDoneInput = z.input<typeof markActionItemDoneInputSchema>;

/** actionItems.fromLastTime / GET /v1/action-items/from-last-time?meetingId= */
export const fromLastTimeInputSchema = z.strictObject({ meetingId: meetingIdSchema });

/**
 * "Open from last time": the latest earlier meeting with the same Meet code or the same participants
 * that has action items, and those of its items still open. `meeting` is null when there is none.
 */
export const fromLastTimeSchema = z.object({
  meeting: actionItemMeetingSchema.nullable(),
  items: z.array(actionItemSchema),
});
export type FromLastTime = z.infer<typeof fromLastTimeSchema>;
