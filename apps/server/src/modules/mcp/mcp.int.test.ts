import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ActionItem,
  type ActionItemPage,
  mcpMeetingUri,
  PERSONAL_TOKEN_PREFIX,
  type AskAllAnswer,
  type McpMeetingList,
  type McpSummaries,
  type McpTranscriptPage,
  type PersonalTokenCreated,
  type SearchOutput,
} from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { seedMeeting } from '../../test/fixtures.js';
import { extractActionItems } from '../action-items/service.js';

const ANA_LINES = [
  { speaker: 'Ana', text: 'Welcome everyone, today we settle the pricing for the launch.' },
  { speaker: 'Bob', text: 'I think the pricing should stay at twenty dollars a month.' },
  { speaker: 'Ana', text: 'Agreed, twenty dollars it is for the first year.' },
  { speaker: 'Bob', text: 'I will send the contract to the customer by Friday.' },
  { speaker: 'Ana', text: 'Great, and I will update the website afterwards.' },
  { speaker: 'Bob', text: 'Then we are done for today, thanks everyone.' },
];

const BO_LINES = [
  { speaker: 'Bo', text: 'The secret pricing of Bo is thirty dollars.' },
  { speaker: 'Cy', text: 'I will write the secret pricing memo by Monday.' },
  { speaker: 'Bo', text: 'Good, and I will tell the board on Tuesday.' },
  { speaker: 'Cy', text: 'Then we keep it quiet until the launch.' },
  { speaker: 'Bo', text: 'Yes, nothing leaves this room before then.' },
];

describe('MCP server at /mcp', () => {
  let app: TestApp;
  let ana: string;
  let bo: string;
  let anaRead: string;
  let anaWrite: string;
  let anaMeeting: string;
  let anaOlder: string;
  let boMeeting: string;
  const clients: Client[] = [];

  const createToken = async (session: string, scope: 'read' | 'write', name = `${scope} token`) => {
    const created = await app.rest<PersonalTokenCreated>('POST', '/v1/access-tokens', { token: session, body: { name, scope } });
    if (created.status !== 200) throw new Error(`token creation failed: ${created.status}`);
    return created.body;
  };

  /** A client of the SDK connected over Streamable HTTP with the token as bearer (none: no header). */
  const connect = async (token?: string) => {
    const client = new Client({ name: 'mbox-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
      requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };

  const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const errorText = (result: CallToolResult) => {
    expect(result.isError).toBe(true);
    return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  };

  beforeAll(async () => {
    app = await startTestApp();
    ana = await app.signIn('ana@example.com');
    bo = await app.signIn('bo@example.com');
    anaOlder = (await seedMeeting(app, ana, 'mcp-older', [{ speaker: 'Ana', text: 'An older stand-up about hiring.' }], Date.UTC(2026, 10, 10, 9, 0)))
      .meetingKey;
    anaMeeting = (await seedMeeting(app, ana, 'mcp-pricing', ANA_LINES, Date.UTC(2026, 10, 20, 15, 0))).meetingKey;
    boMeeting = (await seedMeeting(app, bo, 'mcp-bo', BO_LINES)).meetingKey;
    // Ended meetings get their action items (the ledger's extraction, run here rather than by its job).
    for (const [token, sessionId, meetingId] of [[ana, 'mcp-pricing', anaMeeting], [bo, 'mcp-bo', boMeeting]] as const) {
      const ended = await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId, finishedAt: Date.UTC(2026, 10, 20, 16, 0) } });
      expect(ended.status).toBe(200);
      await extractActionItems(app.deps, meetingId);
    }
    anaRead = (await createToken(ana, 'read')).token;
    anaWrite = (await createToken(ana, 'write')).token;
    // A stored summary for get_summaries (the offline engine writes it).
    const generated = await app.rest('POST', '/v1/prompts', { token: ana, body: { meetKey: anaMeeting, promptKey: 'summary' } });
    expect(generated.status).toBe(200);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.close();
  });

  it('lists its tools with JSON Schemas from the shared zod schemas', async () => {
    const client = await connect(anaRead);
    expect(client.getServerVersion()?.name).toBe('mbox');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'ask',
      'get_summaries',
      'get_transcript',
      'list_action_items',
      'list_meetings',
      'search_meetings',
      'update_action_item',
    ]);
    const transcript = tools.find((t) => t.name === 'get_transcript');
    expect(transcript?.inputSchema.required).toEqual(['meetKey']);
    expect(Object.keys(transcript?.inputSchema.properties ?? {}).sort()).toEqual(['cursor', 'limit', 'meetKey']);
    expect(transcript?.outputSchema?.properties).toHaveProperty('nextCursor');
    expect(transcript?.annotations?.readOnlyHint).toBe(true);
  });

  it('list_meetings pages through the owner’s meetings only, newest first', async () => {
    const client = await connect(anaRead);
    const first = (await call(client, 'list_meetings', { limit: 1 })).structuredContent as McpMeetingList;
    expect(first.meetings.map((m) => m.key)).toEqual([anaMeeting]);
    expect(first.nextOffset).toBe(1);
    const second = (await call(client, 'list_meetings', { limit: 1, offset: 1 })).structuredContent as McpMeetingList;
    expect(second).toMatchObject({ meetings: [{ key: anaOlder }], nextOffset: null });
    const all = await call(client, 'list_meetings', {});
    expect((all.structuredContent as McpMeetingList).meetings.map((m) => m.key)).toEqual([anaMeeting, anaOlder]);
    // The same answer as text, for clients that read only text.
    expect(JSON.parse((all.content[0] as { text: string }).text)).toEqual(all.structuredContent);
  });

  it('search_meetings finds the owner’s lines and never another user’s', async () => {
    const client = await connect(anaRead);
    const found = (await call(client, 'search_meetings', { query: 'pricing' })).structuredContent as SearchOutput;
    expect(found.results.length).toBeGreaterThan(0);
    expect(new Set(found.results.map((r) => r.meetingId))).toEqual(new Set([anaMeeting]));
    expect(errorText(await call(client, 'search_meetings', { query: '   ' }))).toContain('query must not be empty');
  });

  it('get_transcript reads the whole transcript page by page from the first line', async () => {
    const client = await connect(anaRead);
    const lines: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = (await call(client, 'get_transcript', { meetKey: anaMeeting, limit: 4, ...(cursor ? { cursor } : {}) })).structuredContent as McpTranscriptPage;
      expect(page.meeting.key).toBe(anaMeeting);
      expect(page.total).toBe(ANA_LINES.length);
      lines.push(...page.lines.map((l) => `${l.speaker}: ${l.text}`));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(lines).toEqual(ANA_LINES.map((l) => `${l.speaker}: ${l.text}`));

    expect(errorText(await call(client, 'get_transcript', { meetKey: anaMeeting, cursor: 'page-2' }))).toContain(
      'cursor must be a nextCursor this tool returned',
    );
    expect(errorText(await call(client, 'get_transcript', { meetKey: anaMeeting, cursor: 'after.9999999999999999.abc' }))).toContain(
      'cursor: must be a cursor the server returned in next',
    );
    expect(errorText(await call(client, 'get_transcript', { meetKey: anaMeeting, limit: 5000 }))).toContain('limit');
  });

  it('get_summaries answers the stored summaries as Markdown with their citations', async () => {
    const client = await connect(anaRead);
    const result = (await call(client, 'get_summaries', { meetKey: anaMeeting })).structuredContent as McpSummaries;
    expect(result.meetKey).toBe(anaMeeting);
    expect(result.summariesDisabled).toBe(false);
    // The summary asked for, and the Action Items the ledger's extraction wrote.
    expect(result.summaries.map((s) => s.promptKey).sort()).toEqual(['action', 'summary']);
    const summary = result.summaries.find((s) => s.promptKey === 'summary');
    expect(summary?.markdown.length).toBeGreaterThan(20);
    expect(summary?.markdown).not.toMatch(/<\w+/);
    expect(summary?.citations.length).toBeGreaterThan(0);
    // Its points cite their lines as [n] (brackets escaped, as Markdown text), n of an entry of citations.
    const cited = [...(summary?.markdown.matchAll(/\\\[(\d+)\\\]/g) ?? [])].map((m) => Number(m[1]));
    expect(cited.length).toBeGreaterThan(0);
    for (const n of cited) expect(summary?.citations.map((c) => c.n)).toContain(n);
  });

  it('ask answers about one meeting and cites its lines', async () => {
    const client = await connect(anaRead);
    const result = await call(client, 'ask', { meetKey: anaMeeting, question: 'What did Bob promise to send?' });
    const answer = result.structuredContent as AskAllAnswer;
    expect(answer.engine).toBe('offline');
    expect(answer.scope).toEqual({ range: null, meetings: 1, encryptedMeetings: 0 });
    const cited = answer.citations.find((c) => c.text === 'I will send the contract to the customer by Friday.');
    expect(cited).toMatchObject({ meetingId: anaMeeting, speaker: 'Bob' });
    expect(answer.answer).toMatch(/\[\d+\]/);
    expect(errorText(await call(client, 'ask', { meetKey: anaMeeting, question: 'why' }))).toContain('question must be at least 6 characters');
    expect(errorText(await call(client, 'ask', { meetKey: anaMeeting, question: 'What was decided?', from: '2026-11-01' }))).toContain(
      'meetKey cannot be combined with from or to',
    );
  });

  it('ask answers across the owner’s meetings, within a period when given one', async () => {
    const client = await connect(anaRead);
    const all = (await call(client, 'ask', { question: 'What was said about hiring and the contract?' })).structuredContent as AskAllAnswer;
    expect(all.scope.meetings).toBe(2);
    const meetings = new Set(all.citations.map((c) => c.meetingId));
    expect(meetings).toEqual(new Set([anaMeeting, anaOlder]));

    const later = (await call(client, 'ask', { question: 'What was said about hiring?', from: '2026-11-15', to: '2026-11-30' }))
      .structuredContent as AskAllAnswer;
    expect(later.scope).toMatchObject({ meetings: 1, range: { said: null } });
    expect(later.citations.map((c) => c.meetingId)).not.toContain(anaOlder);

    // Bo's meeting says "secret pricing": never searched for Ana.
    const secret = (await call(client, 'ask', { question: 'What is the secret pricing of Bo?' })).structuredContent as AskAllAnswer;
    expect(secret.citations.map((c) => c.meetingId)).not.toContain(boMeeting);
    expect(secret.answer).not.toContain('thirty');

    expect(errorText(await call(client, 'ask', { question: 'What was decided?', from: '2026-11-30', to: '2026-11-01' }))).toContain('to must not be before from');
    expect(errorText(await call(client, 'ask', { question: 'What was decided?', from: 'last week' }))).toContain('from must be a calendar date');
    expect(errorText(await call(client, 'ask', { question: `Why ${'so '.repeat(400)}?` }))).toContain('question must be at most 1000 characters');
  });

  it('list_action_items lists the owner’s items across meetings, filtered', async () => {
    const client = await connect(anaRead);
    const page = (await call(client, 'list_action_items', {})).structuredContent as ActionItemPage;
    expect(page.items.length).toBeGreaterThan(0);
    expect(new Set(page.items.map((i) => i.meeting.id))).toEqual(new Set([anaMeeting]));
    expect(page.items.map((i) => i.text).join('\n')).toMatch(/contract/i);
    const open = (await call(client, 'list_action_items', { status: 'open', meetingId: anaMeeting, limit: 1 })).structuredContent as ActionItemPage;
    expect(open.items).toHaveLength(1);
    expect(open.items[0]?.status).toBe('open');

    expect(errorText(await call(client, 'list_action_items', { status: 'closed' }))).toContain('Unknown status: expected one of open, done');
    expect(errorText(await call(client, 'list_action_items', { dueFrom: '2026-13-40' }))).toContain('dueFrom');
    expect(errorText(await call(client, 'list_action_items', { cursor: 'not-an-item' }))).toContain('is not a cursor of this list');
  });

  it('update_action_item needs the write scope, and changes only the owner’s items', async () => {
    const [item] = ((await call(await connect(anaRead), 'list_action_items', { meetingId: anaMeeting })).structuredContent as ActionItemPage).items;
    if (!item) throw new Error('no action item extracted');

    const reader = await connect(anaRead);
    expect(errorText(await call(reader, 'update_action_item', { id: item.id, status: 'done' }))).toBe(
      'This access token has the read scope: update_action_item changes data and needs the write scope',
    );
    expect((await app.deps.db.actionItem.findUniqueOrThrow({ where: { id: item.id } })).status).toBe('open');

    const writer = await connect(anaWrite);
    const done = (await call(writer, 'update_action_item', { id: item.id, status: 'done', due: '2026-11-27' })).structuredContent as ActionItem;
    expect(done).toMatchObject({ id: item.id, status: 'done', due: '2026-11-27' });
    expect((await app.deps.db.actionItem.findUniqueOrThrow({ where: { id: item.id } })).status).toBe('done');

    // No change asked: the item as it is.
    expect((await call(writer, 'update_action_item', { id: item.id })).structuredContent).toMatchObject({ id: item.id, status: 'done' });
    expect(errorText(await call(writer, 'update_action_item', { id: item.id, due: 'next week' }))).toContain('due');
    const boItem = await app.deps.db.actionItem.findFirstOrThrow({ where: { meetingId: boMeeting } });
    expect(errorText(await call(writer, 'update_action_item', { id: boItem.id, status: 'done' }))).toMatch(/not found/i);
    expect((await app.deps.db.actionItem.findUniqueOrThrow({ where: { id: boItem.id } })).status).toBe('open');
  });

  it('refuses another user’s meeting and an unknown one as not found, in tools and resources', async () => {
    const client = await connect(anaWrite);
    for (const meetKey of [boMeeting, 'no-such-meeting']) {
      expect(errorText(await call(client, 'get_transcript', { meetKey }))).toBe('Meeting not found');
      expect(errorText(await call(client, 'get_summaries', { meetKey }))).toBe('Meeting not found');
      expect(errorText(await call(client, 'ask', { meetKey, question: 'What is the secret pricing?' }))).toBe('Meeting not found');
      expect(errorText(await call(client, 'list_action_items', { meetingId: meetKey }))).toBe('Meeting not found');
      await expect(client.readResource({ uri: mcpMeetingUri(meetKey) })).rejects.toMatchObject({ code: -32002, message: expect.stringContaining('Meeting not found') });
    }
    const search = (await call(client, 'search_meetings', { query: 'secret' })).structuredContent as SearchOutput;
    expect(search.results).toEqual([]);
  });

  it('exposes meetings as resources: a template, the newest listed, each read as Markdown', async () => {
    const client = await connect(anaRead);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['mbox://meetings/{meetKey}']);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([mcpMeetingUri(anaMeeting), mcpMeetingUri(anaOlder)]);
    expect(resources[0]?.mimeType).toBe('text/markdown');

    const read = await client.readResource({ uri: mcpMeetingUri(anaMeeting) });
    const content = read.contents[0] as { uri: string; mimeType: string; text: string };
    expect(content.uri).toBe(mcpMeetingUri(anaMeeting));
    expect(content.mimeType).toBe('text/markdown');
    expect(content.text).toContain('## Transcript');
    expect(content.text).toContain('**Bob** (');
    expect(content.text).toContain('I will send the contract to the customer by Friday.');
    expect(content.text).toContain('## Summaries');
  });

  it('takes only a personal access token: none is 401, a revoked one 401, extension and session tokens 403', async () => {
    await expect(connect()).rejects.toMatchObject({ code: 401, message: expect.stringContaining('personal access token') });
    const bare = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe('Bearer realm="mbox"');

    const revocable = await createToken(ana, 'read', 'soon revoked');
    const client = await connect(revocable.token);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect((await app.rest('DELETE', `/v1/access-tokens/${revocable.accessToken.id}`, { token: ana })).status).toBe(200);
    await expect(client.listTools()).rejects.toMatchObject({ code: 401, message: expect.stringContaining('Access token revoked') });
    await expect(connect(`${PERSONAL_TOKEN_PREFIX}unknown`)).rejects.toMatchObject({ code: 401, message: expect.stringContaining('Access token unknown') });

    const extension = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token: ana })).body.token;
    await expect(connect(extension)).rejects.toMatchObject({ code: 403, message: expect.stringContaining('Extension tokens may only send transcripts') });
    await expect(connect(ana)).rejects.toMatchObject({ code: 403, message: expect.stringContaining('does not take session tokens') });
  });

  it('answers malformed requests with a 4xx naming the problem', async () => {
    const post = async (body: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${app.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${anaRead}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body,
      });
      return { status: response.status, text: await response.text() };
    };
    expect(await post('{"jsonrpc":')).toMatchObject({ status: 400, text: expect.stringContaining('Body is not valid JSON') });
    expect(await post('{"hello":1}')).toMatchObject({ status: 400, text: expect.stringContaining('Invalid JSON-RPC message') });
    expect(await post('[]')).toMatchObject({ status: 400, text: expect.stringContaining('an empty batch holds no message') });
    const list = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    expect(await post(list, { accept: 'application/json' })).toMatchObject({ status: 406, text: expect.stringContaining('must accept both') });
    expect(await post(list, { 'content-type': 'text/plain' })).toMatchObject({ status: 415, text: expect.stringContaining('Content-Type must be application/json') });
    const unknownTool = await post('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"drop_tables","arguments":{}}}');
    expect(unknownTool.status).toBe(200);
    expect(JSON.parse(unknownTool.text)).toMatchObject({ id: 2, result: { isError: true, content: [{ text: 'MCP error -32602: Tool drop_tables not found' }] } });
  });

  it('serves POST only: GET and DELETE are 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${app.url}/mcp`, { method, headers: { authorization: `Bearer ${anaRead}`, accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });
});
