import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  actionItemListInputSchema,
  actionItemPageSchema,
  actionItemSchema,
  MCP_MEETING_URI_TEMPLATE,
  MCP_RESOURCE_LIST_LIMIT,
  askAllAnswerSchema,
  mcpAskInputSchema,
  mcpListMeetingsInputSchema,
  mcpMeetingInputSchema,
  mcpMeetingListSchema,
  mcpMeetingUri,
  mcpSearchInputSchema,
  mcpSummariesSchema,
  mcpTranscriptInputSchema,
  mcpTranscriptPageSchema,
  searchOutputSchema,
  updateActionItemInputSchema,
  type ActionItemFilter,
  type ActionItemPage,
  type AskAllAnswer,
  type McpAskInput,
  type McpMeetingList,
  type McpSummaries,
  type McpTranscriptPage,
} from '@mbox/shared';
import { API_VERSION } from '../../openapi.js';
import { AppError, ERROR_KINDS } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';
import { requireWriteScope } from '../access-tokens/service.js';
import { listActionItems, updateActionItem } from '../action-items/service.js';
import { askAll } from '../ask/all-meetings.js';
import { streamAnswer } from '../ask/service.js';
import type { AuthUser } from '../auth/service.js';
import { exportMeeting } from '../export/service.js';
import { blocksToMarkdown } from '../export/formats/markdown.js';
import { summaryBlocks } from '../export/summary-blocks.js';
import { findOwnMeeting, getMeetingMessages, listMeetings } from '../meeting/service.js';
import { search } from '../search/service.js';
import { listSummaries } from '../summary/service.js';

/** JSON-RPC error code the MCP specification gives an unknown resource. */
const RESOURCE_NOT_FOUND = -32002;

interface Caller {
  deps: AppDeps;
  user: AuthUser;
  log: AppDeps['log'];
  /** Shown in the answer to a failure nobody expected, as the REST API's 500s do. */
  requestId: string;
}

/**
 * What a failure tells the assistant: an AppError's own message (it names the problem: "Meeting not
 * found", the missing scope, a bad cursor); anything else is logged and answered as the API's 500s are.
 */
function failureMessage(caller: Caller, error: unknown, what: string): string {
  if (error instanceof AppError) return error.message;
  caller.log.error({ err: error, what }, 'mcp call failed');
  return `${ERROR_KINDS.INTERNAL_SERVER_ERROR.message} (request id ${caller.requestId})`;
}

/**
 * A tool's answer: the structured result, checked by the SDK against the tool's output schema, and the
 * same as JSON text for clients that read only text (the MCP specification asks for both).
 */
async function toolCall<T extends object>(caller: Caller, tool: string, work: () => Promise<T>): Promise<CallToolResult> {
  try {
    const result = await work();
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result as Record<string, unknown> };
  } catch (error) {
    return { isError: true, content: [{ type: 'text', text: failureMessage(caller, error, tool) }] };
  }
}

async function meetingPage(caller: Caller, input: { limit: number; offset: number }): Promise<McpMeetingList> {
  // One more than asked tells whether another page follows.
  const meetings = await listMeetings(caller.deps, caller.user.id, { limit: input.limit + 1, offset: input.offset });
  const more = meetings.length > input.limit;
  return { meetings: meetings.slice(0, input.limit), nextOffset: more ? input.offset + input.limit : null };
}

async function transcriptPage(caller: Caller, input: { meetKey: string; cursor?: string | undefined; limit: number }): Promise<McpTranscriptPage> {
  const page = await getMeetingMessages(caller.deps, caller.user.id, { id: input.meetKey, cursor: input.cursor, limit: input.limit, fromStart: true });
  return {
    meeting: page.meet,
    lines: page.messages.map((m) => ({ key: m.key, speaker: m.user, spokenAt: new Date(m.spokenAt).toISOString(), text: m.text })),
    nextCursor: page.next,
    total: page.total,
  };
}

async function summaries(caller: Caller, meetKey: string): Promise<McpSummaries> {
  const list = await listSummaries(caller.deps, caller.user.id, meetKey);
  return {
    meetKey,
    summaries: await Promise.all(
      list.summaries.map(async (s) => ({
        docId: s.docId,
        title: s.title,
        promptKey: s.promptKey,
        customPrompt: s.customPrompt,
        // A cited line as [n], the number of its entry in citations (the export writes its time instead).
        markdown: blocksToMarkdown(await summaryBlocks(s.text, (numbers) => `[${numbers.join(', ')}]`)),
        citations: s.citations,
        model: s.model,
      })),
    ),
    summariesDisabled: list.summariesDisabled,
  };
}

/**
 * A question across the user's meetings (as the app's header asks it), or about one meeting (as its
 * Ask panel does, the streamed answer collected whole and its citations given their meeting).
 */
async function ask(caller: Caller, input: McpAskInput, signal: AbortSignal): Promise<AskAllAnswer> {
  if (input.meetKey === undefined) return askAll(caller.deps, caller.user, { question: input.question, from: input.from, to: input.to }, { signal });
  const meeting = await findOwnMeeting(caller.deps, caller.user.id, input.meetKey);
  const scope = { range: null, meetings: 1, encryptedMeetings: 0 };
  for await (const event of streamAnswer(caller.deps, caller.user, { meetingId: meeting.id, question: input.question, history: [] }, signal)) {
    if (event.type === 'error') throw new AppError('SERVICE_UNAVAILABLE', event.message);
    if (event.type !== 'done') continue;
    const about = { meetingId: meeting.id, meetingTitle: meeting.title, meetingDate: meeting.startedAt.getTime() };
    return { answer: event.answer, citations: event.citations.map((c) => ({ ...c, ...about })), engine: event.engine, scope };
  }
  throw new AppError('SERVICE_UNAVAILABLE', 'The answer ended before it was complete: ask again');
}

/** The ledger's page; a meeting filter naming another user's meeting (or none) is "Meeting not found", not an empty page. */
async function actionItems(caller: Caller, filter: ActionItemFilter): Promise<ActionItemPage> {
  if (filter.meetingId) await findOwnMeeting(caller.deps, caller.user.id, filter.meetingId);
  return listActionItems(caller.deps, caller.user.id, filter);
}

async function meetingMarkdown(caller: Caller, meetKey: string, signal: AbortSignal): Promise<string> {
  const file = await exportMeeting(caller.deps, caller.user, meetKey, 'md', signal);
  let text = '';
  for await (const chunk of file.body) text += String(chunk);
  return text;
}

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * The MCP server of one request, acting as the token's owner (stateless Streamable HTTP: each POST
 * gets its own). Tools and resources call the services directly, so they answer exactly what the
 * app and the REST API answer, scoped to the owner: another user's meeting is "Meeting not found".
 */
export function buildMcpServer(caller: Caller): McpServer {
  const server = new McpServer(
    { name: 'mbox', title: 'Mbox meetings', version: API_VERSION },
    {
      instructions:
        "Mbox holds the user's Google Meet transcripts and their summaries. Find meetings with search_meetings or list_meetings, " +
        'read them with get_transcript (paged) or get_summaries, and ask questions with ask. Every answer is scoped to the token owner.',
    },
  );

  server.registerTool(
    'search_meetings',
    {
      title: 'Search meetings',
      description: "Full-text search across the user's meetings: transcript lines, comments, titles, participants and summaries. Best first; encrypted meetings are not searched.",
      inputSchema: mcpSearchInputSchema,
      outputSchema: searchOutputSchema,
      annotations: readOnly,
    },
    (input) => toolCall(caller, 'search_meetings', () => search(caller.deps, caller.user.id, { q: input.query, limit: input.limit })),
  );

  server.registerTool(
    'list_meetings',
    {
      title: 'List meetings',
      description: "The user's meetings, newest first, a page at a time (key, title, Meet code, start and finish in epoch ms, participants).",
      inputSchema: mcpListMeetingsInputSchema,
      outputSchema: mcpMeetingListSchema,
      annotations: readOnly,
    },
    (input) => toolCall(caller, 'list_meetings', () => meetingPage(caller, input)),
  );

  server.registerTool(
    'get_transcript',
    {
      title: 'Read a transcript',
      description: "A page of a meeting's transcript lines in spoken order, from the first line on; pass nextCursor as cursor to read on.",
      inputSchema: mcpTranscriptInputSchema,
      outputSchema: mcpTranscriptPageSchema,
      annotations: readOnly,
    },
    (input) => toolCall(caller, 'get_transcript', () => transcriptPage(caller, input)),
  );

  server.registerTool(
    'get_summaries',
    {
      title: 'Read summaries',
      description: "The meeting's stored summaries (minutes, action items, custom questions) as Markdown, oldest first, with the lines they cite.",
      inputSchema: mcpMeetingInputSchema,
      outputSchema: mcpSummariesSchema,
      annotations: readOnly,
    },
    (input) => toolCall(caller, 'get_summaries', () => summaries(caller, input.meetKey)),
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask about meetings',
      description:
        "Answers a question from the user's meetings, citing the lines it relies on as [n] (each citation names its meeting, time and speaker). " +
        'Across all meetings by default, where a date phrase ("last month", "in October") or from/to restricts the meetings searched; ' +
        'with meetKey about that meeting only. Encrypted meetings are left out and the answer says so. ' +
        'Counts as one AI generation of the daily limit when an LLM answers.',
      inputSchema: mcpAskInputSchema,
      outputSchema: askAllAnswerSchema,
      annotations: readOnly,
    },
    (input, extra) => toolCall(caller, 'ask', () => ask(caller, input, extra.signal)),
  );

  server.registerTool(
    'list_action_items',
    {
      title: 'List action items',
      description:
        "The user's action items across meetings (text, owner, due day YYYY-MM-DD, status open or done, meeting, source line), newest meeting first. " +
        'Filters combine: owner, status, meetingId (a meeting key), dueFrom and dueTo; pass nextCursor as cursor for the next page.',
      inputSchema: actionItemListInputSchema,
      outputSchema: actionItemPageSchema,
      annotations: readOnly,
    },
    (input) => toolCall(caller, 'list_action_items', () => actionItems(caller, input)),
  );

  server.registerTool(
    'update_action_item',
    {
      title: 'Update an action item',
      description:
        'Changes an action item: mark it done or open again (status), or set its text, owner or due day (YYYY-MM-DD; null clears it). ' +
        'Needs a token with the write scope.',
      inputSchema: updateActionItemInputSchema,
      outputSchema: actionItemSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (input) =>
      toolCall(caller, 'update_action_item', async () => {
        requireWriteScope(caller.user, 'update_action_item changes data and');
        const { id, ...patch } = input;
        return updateActionItem(caller.deps, caller.user.id, id, patch);
      }),
  );

  server.registerResource(
    'meeting',
    new ResourceTemplate(MCP_MEETING_URI_TEMPLATE, {
      list: async () => {
        const meetings = await listMeetings(caller.deps, caller.user.id, { limit: MCP_RESOURCE_LIST_LIMIT, offset: 0 });
        return {
          resources: meetings.map((m) => ({
            uri: mcpMeetingUri(m.key),
            name: m.title || `Meeting ${m.meetCode}`,
            description: `Google Meet ${m.meetCode}, started ${new Date(m.date).toISOString()}`,
            mimeType: 'text/markdown',
          })),
        };
      },
    }),
    {
      title: 'Meeting',
      description: 'A meeting as Markdown: date, participants, its summaries and the whole transcript (the Markdown export).',
      mimeType: 'text/markdown',
    },
    async (uri, variables, extra) => {
      const meetKey = decodeURIComponent(String(variables.meetKey));
      try {
        return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await meetingMarkdown(caller, meetKey, extra.signal) }] };
      } catch (error) {
        if (error instanceof AppError && error.status === 404) throw new McpError(RESOURCE_NOT_FOUND, `${error.message}: ${uri.href}`);
        throw new McpError(error instanceof AppError && error.status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError, failureMessage(caller, error, 'resources/read'));
      }
    },
  );

  return server;
}
