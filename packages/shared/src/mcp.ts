import { z } from 'zod';
import { askAllInputSchema } from './ask.js';
import { MESSAGE_CURSOR_PATTERN, MESSAGE_PAGE_MAX_LIMIT, meetingIdSchema, meetingSchema } from './meeting.js';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_QUERY_MAX } from './search.js';
import { summaryCitationSchema } from './summary.js';

/*
 * The MCP server's tools (`/mcp`, docs/mcp.md): their input and output schemas. The server hands them
 * to the MCP SDK, which publishes them as JSON Schema and checks every call against them; field
 * descriptions are what an assistant reads to call a tool well.
 */

/** Path of the MCP endpoint (Streamable HTTP). */
export const MCP_PATH = '/mcp';

/** URI of a meeting as an MCP resource; `{meetKey}` is the meeting's key. */
export const MCP_MEETING_URI_TEMPLATE = 'mbox://meetings/{meetKey}';
export const mcpMeetingUri = (meetKey: string) => `mbox://meetings/${encodeURIComponent(meetKey)}`;

/** Meetings the resource list names (the newest); older ones are reached through list_meetings' offset. */
export const MCP_RESOURCE_LIST_LIMIT = 100;
/** Meetings list_meetings answers at most per call. */
export const MCP_MEETING_PAGE_MAX = 100;
/** Lines get_transcript answers when not told how many. */
export const MCP_TRANSCRIPT_PAGE_DEFAULT = 200;

const meetKey = meetingIdSchema.describe('The meeting key: `key` of a list_meetings result or `meetingId` of a search_meetings result');

export const mcpSearchInputSchema = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1, 'query must not be empty')
    .max(SEARCH_QUERY_MAX, `query must be at most ${SEARCH_QUERY_MAX} characters`)
    .describe('Words to find in transcripts, comments, titles, participant names and summaries; "a phrase", -word to exclude, or'),
  limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_DEFAULT).describe('Most results to answer, best first'),
});

export const mcpListMeetingsInputSchema = z.strictObject({
  limit: z.number().int().min(1).max(MCP_MEETING_PAGE_MAX).default(20).describe('Most meetings to answer, newest first'),
  offset: z.number().int().min(0).max(1_000_000).default(0).describe('Meetings to skip: the nextOffset of the previous page'),
});

export const mcpMeetingListSchema = z.object({
  meetings: z.array(meetingSchema),
  /** The offset of the next page; null when this page is the last. */
  nextOffset: z.number().int().nullable(),
});
export type McpMeetingList = z.infer<typeof mcpMeetingListSchema>;

export const mcpTranscriptInputSchema = z.strictObject({
  meetKey,
  cursor: z
    .string()
    .regex(MESSAGE_CURSOR_PATTERN, 'cursor must be a nextCursor this tool returned')
    .optional()
    .describe('Where to read on: the nextCursor of the previous page; leave it out to start at the first line'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MESSAGE_PAGE_MAX_LIMIT)
    .default(MCP_TRANSCRIPT_PAGE_DEFAULT)
    .describe('Most lines to answer'),
});

export const mcpTranscriptLineSchema = z.object({
  key: z.string(),
  speaker: z.string(),
  /** When it was said, ISO 8601 (UTC). */
  spokenAt: z.string(),
  text: z.string(),
});

export const mcpTranscriptPageSchema = z.object({
  meeting: meetingSchema,
  /** In spoken order. */
  lines: z.array(mcpTranscriptLineSchema),
  /** Pass as cursor to read the next lines; null at the end of the transcript. */
  nextCursor: z.string().nullable(),
  /** Lines in the meeting when this page was read. */
  total: z.number().int(),
});
export type McpTranscriptPage = z.infer<typeof mcpTranscriptPageSchema>;

export const mcpMeetingInputSchema = z.strictObject({ meetKey });

export const mcpSummariesSchema = z.object({
  meetKey: z.string(),
  summaries: z.array(
    z.object({
      docId: z.string(),
      title: z.string(),
      promptKey: z.string(),
      /** The question of a custom prompt; empty for the catalogue's. */
      customPrompt: z.string(),
      /** The summary as Markdown; a cited line reads [n], n of its entry in citations. */
      markdown: z.string(),
      citations: z.array(summaryCitationSchema),
      model: z.string(),
    }),
  ),
  /** The meeting has too few lines or speakers to be summarised yet. */
  summariesDisabled: z.boolean(),
});
export type McpSummaries = z.infer<typeof mcpSummariesSchema>;

/**
 * The ask tool: a question about one meeting (meetKey), or across all of the user's meetings, where
 * from/to (or a date phrase in the question) restrict the meetings searched, as in the app.
 */
export const mcpAskInputSchema = z
  .strictObject({
    question: askAllInputSchema.shape.question.describe(
      'A question about what was said, e.g. "What did we decide about pricing last month?"; a date phrase restricts the meetings searched',
    ),
    meetKey: meetKey.optional().describe('Ask about this meeting only; leave it out to ask across all meetings'),
    from: askAllInputSchema.shape.from.describe('First day (YYYY-MM-DD, the user\'s time zone) of the meetings searched, across meetings'),
    to: askAllInputSchema.shape.to.describe('Last day (YYYY-MM-DD) of the meetings searched, across meetings'),
  })
  .refine((input) => input.meetKey === undefined || (input.from === undefined && input.to === undefined), {
    path: ['meetKey'],
    message: 'meetKey cannot be combined with from or to: a period restricts a question across meetings',
  });
export type McpAskInput = z.output<typeof mcpAskInputSchema>;
