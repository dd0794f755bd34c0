import { z } from 'zod';

export const UNTITLED_MEETING = 'Untitled meet';
export const MEETING_LIST_LIMIT = 100;
export const MEETING_LIST_GROUPED_LIMIT = 1000;

export const MARKS = ['important', 'flagged', 'commented'] as const;
export const markSchema = z.enum(MARKS);
export type Mark = z.infer<typeof markSchema>;

/** Meeting as the list and detail calls return it (product.md, Data). Times are epoch ms. */
export const meetingSchema = z.object({
  key: z.string(),
  title: z.string(),
  meetCode: z.string(),
  date: z.number(),
  createdAt: z.number(),
  finishedAt: z.number().nullable(),
  users: z.array(z.string()),
  encrypted: z.boolean(),
  isAnalyzed: z.boolean(),
});
export type Meeting = z.infer<typeof meetingSchema>;

export const messageSchema = z.object({
  key: z.string(),
  captionId: z.string(),
  user: z.string(),
  userAvatar: z.string(),
  text: z.string(),
  aiFixed: z.string().nullable(),
  marks: z.array(markSchema),
  comment: z.string(),
  encrypted: z.boolean(),
  final: z.boolean(),
  spokenAt: z.number(),
  lastUpdated: z.number(),
});
export type Message = z.infer<typeof messageSchema>;

export const meetingIdSchema = z.string().trim().min(1).max(100);

export const meetingListInputSchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MEETING_LIST_GROUPED_LIMIT).default(MEETING_LIST_LIMIT),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export const meetingDetailSchema = z.object({
  meet: meetingSchema,
  messages: z.array(messageSchema),
});
export type MeetingDetail = z.infer<typeof meetingDetailSchema>;

/** The grouped view reads up to 1000 meetings unless told fewer. */
export const meetingGroupsInputSchema = meetingListInputSchema.extend({
  limit: z.coerce.number().int().min(1).max(MEETING_LIST_GROUPED_LIMIT).default(MEETING_LIST_GROUPED_LIMIT),
});

/** Grouped view: meetings by day in the user's timezone, newest day and meeting first. */
export const meetingGroupsSchema = z.object({
  groups: z.array(
    z.object({
      /** yyyy-MM-dd */
      day: z.string(),
      /** Long English date, e.g. 'Sunday, November 22, 2026'. */
      label: z.string(),
      meetings: z.array(meetingSchema),
    }),
  ),
});
export type MeetingGroups = z.infer<typeof meetingGroupsSchema>;

/** Lines in the first page of a transcript: one screenful and some, so it paints at once. */
export const MESSAGE_PAGE_FIRST_LIMIT = 150;
/** Lines per page when the rest is read in the background. */
export const MESSAGE_PAGE_MAX_LIMIT = 1000;

/**
 * Where the next page starts: `after.<spokenAt ms>.<key>` reads later lines, `before.<spokenAt ms>.<key>`
 * earlier ones. Cursors come from the server (`next`); clients pass them back unchanged.
 */
export const MESSAGE_CURSOR_PATTERN = /^(after|before)\.(\d{1,16})\.([A-Za-z0-9_-]{1,100})$/;

/** GET /v1/meeting/{id}/messages?cursor&around&limit: one page of a transcript. */
export const meetingMessagesInputSchema = z
  .strictObject({
    id: meetingIdSchema,
    cursor: z
      .string()
      .regex(MESSAGE_CURSOR_PATTERN, 'must be a cursor the server returned in next')
      .optional(),
    /** A line's key: the page around it (the lines before it and from it on), to open the transcript at that line. */
    around: z.string().trim().min(1).max(100).optional(),
    limit: z.coerce.number().int().min(1).max(MESSAGE_PAGE_MAX_LIMIT).default(MESSAGE_PAGE_FIRST_LIMIT),
  })
  .refine((input) => !(input.cursor && input.around), { path: ['around'], message: 'cannot be combined with cursor' });
export type MeetingMessagesInput = z.input<typeof meetingMessagesInputSchema>;

/**
 * A page of lines in transcript order (spokenAt, then key). Without a cursor it is the opening page:
 * the first lines of a finished meeting, the last lines of a live one; `next` then reads on in that
 * direction (later lines, or earlier ones), null when nothing is left that way.
 */
export const meetingMessagesSchema = z.object({
  meet: meetingSchema,
  messages: z.array(messageSchema),
  next: z.string().nullable(),
  /** Lines in the meeting when this page was read (for the scroll size while the rest loads). */
  total: z.number().int(),
});
export type MeetingMessages = z.infer<typeof meetingMessagesSchema>;
