import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActionItem, ActionItemFacets, ActionItemPage, FromLastTime } from '@mbox/shared';
import type { Webhook, WebhookPayload } from '@mbox/shared/webhooks';
import { loadQmsumMeeting } from '../../ai/eval/qmsum.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { isActionItemsRequest, startOpenAiTestServer, testLlmConfig, type OpenAiTestServer } from '../../test/openai-server.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';
import { extractActionItems } from './service.js';

type ErrorBody = { message: string; code: string; data: { field?: string; httpStatus: number } };

const PUBLIC_URL = 'https://mbox.example.org';
/** Tuesday 5 March 2024, 09:00 UTC: "by Friday" is 8 March, "next Tuesday" 12 March. */
const TUESDAY = Date.UTC(2024, 2, 5, 9);
const DAY_MS = 24 * 60 * 60 * 1000;

const is1003b = loadQmsumMeeting('IS1003b').meeting_transcripts.map((t) => [t.speaker, t.content] as const);

/** A short planning meeting whose Action Items name owners and due days. */
const PLANNING = [
  ['Ana', 'Welcome everyone, today we decide the launch date for the new billing page.'],
  ['Ben', 'The billing page is ready for review; QA found two bugs in the invoice export.'],
  ['Ana', 'Then we fix the invoice export bugs first and launch next Tuesday.'],
  ['Ben', 'Agreed. I will fix the export bugs by Friday and send the release notes.'],
  ['Ana', 'Great. I will announce the launch to customers on Tuesday morning.'],
  ['Ben', 'I will also update the help centre article about invoices.'],
] as const;

interface MeetingSpec {
  sessionId: string;
  meetCode?: string;
  participants?: string[];
  startedAt?: number;
  lines: readonly (readonly [string, string])[];
  /** Caption ids continue from here (more lines for a meeting already captured). */
  from?: number;
}

/** Captures a meeting as the extension does; answers its id. */
async function capture_(app: TestApp, token: string, spec: MeetingSpec): Promise<string> {
  const startedAt = spec.startedAt ?? TUESDAY;
  const { status, body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
    token,
    body: {
      meeting: { sessionId: spec.sessionId, meetCode: spec.meetCode ?? 'abc-defg-hij', startedAt, title: `Meeting ${spec.sessionId}`, participants: spec.participants ?? ['Ana', 'Ben'] },
      lines: spec.lines.map(([speaker, text], i) => ({
        captionId: `c${(spec.from ?? 0) + i}`,
        revision: 0,
        speaker,
        text,
        spokenAt: startedAt + ((spec.from ?? 0) + i) * 10_000,
        final: true,
      })),
    },
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.meetingKey;
}

/** States of the meeting's extraction jobs. */
async function extractionStates(app: TestApp, meetingId: string): Promise<string[]> {
  const rows = await app.deps.db.$queryRaw<{ state: string }[]>`
    SELECT state::text FROM pgboss.job WHERE name = 'action-items-extract' AND data->>'meetingId' = ${meetingId}`;
  return rows.map((r) => r.state);
}

/** Ends the meeting through the extension's call and waits for its `runs`-th extraction to finish. */
async function endAndExtract_(app: TestApp, token: string, meetingId: string, sessionId: string, runs = 1): Promise<void> {
  const ended = await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId, finishedAt: TUESDAY + 30 * 60_000 } });
  expect(ended.status, JSON.stringify(ended.body)).toBe(200);
  await expect
    .poll(async () => (await extractionStates(app, meetingId)).filter((s) => s === 'completed').length, { timeout: 60_000, interval: 250 })
    .toBe(runs);
}

async function listItems(app: TestApp, token: string, query = ''): Promise<ActionItemPage> {
  const response = await app.rest<ActionItemPage & ErrorBody>('GET', `/v1/action-items${query}`, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

describe('action-item ledger', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let ana: string;
  let bo: string;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    app = await startTestApp({ PUBLIC_URL, JOB_POLL_SECONDS: 0.5, WEBHOOK_ALLOWED_HOSTS: [receiver.host], WEBHOOK_RETRY_DELAY_SECONDS: 1 });
    ana = await app.signIn('ana@example.com');
    bo = await app.signIn('bo@example.com');
    await app.deps.db.user.updateMany({ data: { timezone: 'Europe/Berlin' } });
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.requests.length = 0;
  });

  const capture = (token: string, spec: MeetingSpec) => capture_(app, token, spec);
  const endAndExtract = (token: string, meetingId: string, sessionId: string, runs = 1) => endAndExtract_(app, token, meetingId, sessionId, runs);
  const list = (token: string, query = '') => listItems(app, token, query);
  const patch = (token: string, id: string, body: unknown) => app.rest<ActionItem & ErrorBody>('PATCH', `/v1/action-items/${id}`, { token, body });

  let planningId: string;
  let planning: ActionItem[];

  it('reads a QMSum meeting\'s action items with the offline engine when it ends, each citing its line', { timeout: 120_000 }, async () => {
    const meetingId = await capture(ana, { sessionId: 'is1003b', meetCode: 'qms-umis-bcd', participants: ['A', 'B', 'C', 'D'], lines: is1003b });
    expect((await list(ana, `?meetingId=${meetingId}`)).items).toEqual([]);
    await endAndExtract(ana, meetingId, 'is1003b');
    const { items } = await list(ana, `?meetingId=${meetingId}`);
    // The engine's Action Items, stored like one asked for in the app, and read item by item.
    const answer = await app.deps.db.summary.findFirstOrThrow({ where: { meetingId, promptKey: 'action' } });
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(answer.text.match(/<li>/g)).toHaveLength(items.length);
    // Work suggested that nobody took on is unassigned ("We can mix several function in one button."); what
    // "you" generally have to do ("You have to learn the manual…") is no task (docs/ai.md, the offline engine).
    expect(new Set(items.map((i) => i.owner))).toEqual(new Set(['User Interface', 'Unassigned']));
    const messages = new Map((await app.deps.db.message.findMany({ where: { meetingId } })).map((m) => [m.id, m]));
    for (const item of items) {
      expect(item).toMatchObject({ status: 'open', doneAt: null, edited: false, due: null, meeting: { id: meetingId, title: 'Meeting is1003b', startedAt: TUESDAY } });
      const line = messages.get(item.source!.messageId)!;
      expect(item.source).toEqual({ messageId: line.id, speaker: line.user, spokenAt: line.spokenAt.getTime() });
      expect(item.text.length).toBeGreaterThan(10);
    }
    expect(items.some((i) => /user interface design/i.test(i.text))).toBe(true);
  });

  it('reads owners and due days said in words, relative to the meeting in the owner\'s time zone', { timeout: 60_000 }, async () => {
    planningId = await capture(ana, { sessionId: 'planning', lines: PLANNING });
    await endAndExtract(ana, planningId, 'planning');
    planning = (await list(ana, `?meetingId=${planningId}`)).items;
    expect(planning.map((i) => [i.owner, i.text, i.due])).toEqual(
      expect.arrayContaining([
        ['Ben', expect.stringMatching(/^Fix the export bugs/), '2024-03-08'],
        ['Ana', expect.stringMatching(/^Announce the launch to customers/), '2024-03-12'],
      ]),
    );
  });

  it('a meeting ended again adds only new items and never rewrites what its owner edited', { timeout: 120_000 }, async () => {
    const fix = planning.find((i) => i.owner === 'Ben' && /export bugs/.test(i.text))!;
    const announce = planning.find((i) => i.owner === 'Ana')!;
    const edited = await patch(ana, fix.id, { text: 'Fix both export bugs', owner: 'Ben Ode', due: '2024-03-11' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ text: 'Fix both export bugs', owner: 'Ben Ode', due: '2024-03-11', edited: true });

    // The same answer read again changes nothing.
    expect(await extractActionItems(app.deps, planningId)).toEqual({ created: 0, updated: 0, kept: planning.length });
    // A minute later more lines reopen the meeting (the meeting's line clock moves in steps of seconds);
    // its second end extracts again from the whole meeting.
    await app.deps.db.meeting.update({ where: { id: planningId }, data: { lastLineAt: new Date(Date.now() - 60_000) } });
    await capture(ana, { sessionId: 'planning', lines: [['Ben', 'One more thing: I will order the new test devices by Thursday.'], ['Ana', 'Thanks Ben.']], from: PLANNING.length });
    await endAndExtract(ana, planningId, 'planning', 2);
    const after = (await list(ana, `?meetingId=${planningId}`)).items;
    expect(after.length).toBe(planning.length + 1);
    expect(new Set(after.map((i) => i.id)).size).toBe(after.length);
    expect(after.find((i) => i.id === fix.id)).toMatchObject({ text: 'Fix both export bugs', owner: 'Ben Ode', due: '2024-03-11', edited: true });
    expect(after.find((i) => i.id === announce.id)).toMatchObject({ text: announce.text, owner: 'Ana', due: '2024-03-12' });
    expect(after.find((i) => /test devices/.test(i.text))).toMatchObject({ owner: 'Ben', due: '2024-03-07', status: 'open' });
  });

  it('marks done and open again, and filters by status, owner, meeting and due days, a page at a time', async () => {
    const all = (await list(ana, '?limit=200')).items;
    const target = all.find((i) => i.owner === 'Ana')!;
    const done = await app.rest<ActionItem>('POST', `/v1/action-items/${target.id}/done`, { token: ana, body: {} });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'done', edited: false });
    expect(done.body.doneAt).toBeGreaterThan(Date.now() - 60_000);
    expect((await list(ana, '?status=done')).items.map((i) => i.id)).toEqual([target.id]);
    expect((await list(ana, '?status=open')).items).toHaveLength(all.length - 1);
    // tRPC serves the same calls.
    const reopened = await app.trpc(ana).actionItems.markDone.mutate({ id: target.id, done: false });
    expect(reopened).toMatchObject({ status: 'open', doneAt: null });

    expect((await list(ana, '?owner=ben%20ODE')).items.map((i) => i.text)).toEqual(['Fix both export bugs']);
    expect((await list(ana, '?dueFrom=2024-03-08&dueTo=2024-03-11')).items.map((i) => i.due).sort()).toEqual(['2024-03-11']);
    expect((await list(ana, '?dueFrom=2024-03-12')).items.map((i) => i.owner)).toEqual(['Ana']);
    expect((await list(ana, '?dueTo=2024-03-07')).items.map((i) => i.text)).toEqual([expect.stringMatching(/test devices/)]);
    expect((await list(ana, `?meetingId=${planningId}&status=open&owner=Ana`)).items).toHaveLength(1);

    // Newest meeting first, each meeting's items in their order; pages follow each other without gaps.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ActionItemPage = await list(ana, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((i) => i.id));

    const facets = await app.rest<ActionItemFacets>('GET', '/v1/action-items/facets', { token: ana });
    expect(facets.body.owners).toEqual([...new Set(all.map((i) => i.owner))].sort());
    expect(facets.body.meetings.map((m) => m.id)).toEqual([...new Set(all.map((i) => i.meeting.id))]);
  });

  it.each([
    ['?dueFrom=2026-02-30', 'dueFrom', /not a day of the calendar/],
    ['?dueTo=03%2F08%2F2024', 'dueTo', /YYYY-MM-DD/],
    ['?dueFrom=2024-03-10&dueTo=2024-03-01', 'dueTo', /not be before dueFrom/],
    ['?status=finished', 'status', /Unknown status/],
    ['?limit=0', 'limit', /./],
    ['?cursor=nope', 'cursor', /not a cursor of this list/],
    ['?colour=red', '(body)', /./],
  ])('refuses the list query %s with a 400 naming %s', async (query, field, message) => {
    const response = await app.rest<ErrorBody>('GET', `/v1/action-items${query}`, { token: ana });
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.data.field).toBe(field);
    expect(response.body.message).toMatch(message);
  });

  it.each([
    [{ due: '2024-13-01' }, 'due', /not a day of the calendar/],
    [{ due: 'next Friday' }, 'due', /YYYY-MM-DD/],
    [{ text: '   ' }, 'text', /must not be empty/],
    [{ text: 'x'.repeat(501) }, 'text', /at most 500/],
    [{ owner: '' }, 'owner', /must not be empty/],
    [{ status: 'closed' }, 'status', /Unknown status/],
    [{ text: 'ok', meetingId: 'other' }, '(body)', /./],
  ])('refuses the change %j with a 400 naming %s', async (body, field, message) => {
    const response = await patch(ana, planning[0]!.id, body);
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.data.field).toBe(field);
    expect(response.body.message).toMatch(message);
  });

  it("shows, changes and answers about an item or meeting to its owner only: another's id is not found", async () => {
    const item = planning.find((i) => i.owner === 'Ben' && /export bugs/.test(i.text))!;
    expect((await list(bo)).items).toEqual([]);
    expect((await app.rest<ActionItemFacets>('GET', '/v1/action-items/facets', { token: bo })).body).toEqual({ owners: [], meetings: [] });
    for (const [method, path, body] of [
      ['GET', `/v1/action-items/${item.id}`, undefined],
      ['PATCH', `/v1/action-items/${item.id}`, { text: 'Mine now' }],
      ['POST', `/v1/action-items/${item.id}/done`, {}],
      ['GET', `/v1/action-items/from-last-time?meetingId=${planningId}`, undefined],
      ['GET', '/v1/action-items/no-such-item', undefined],
    ] as const) {
      const response = await app.rest<ErrorBody>(method, path, { token: bo, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.message).toMatch(/^(Action item|Meeting) not found$/);
    }
    // Bo's filter on Ana's meeting finds nothing of Ana's.
    expect((await list(bo, `?meetingId=${planningId}`)).items).toEqual([]);
    await expect(app.trpc(bo).actionItems.update.mutate({ id: item.id, owner: 'Bo' })).rejects.toMatchObject({ data: { httpStatus: 404 } });
    expect((await app.rest<ActionItem>('GET', `/v1/action-items/${item.id}`, { token: ana })).body.text).toBe('Fix both export bugs');
    expect((await app.rest('GET', '/v1/action-items')).status).toBe(401);
  });

  it('shows "Open from last time": the open items of the latest earlier meeting with the same Meet code or the same people', { timeout: 120_000 }, async () => {
    const token = await app.signIn('weekly@example.com');
    const week = 7 * DAY_MS;
    const first = await capture(token, { sessionId: 'w1', meetCode: 'wee-klys-ync', participants: ['Ana', 'Ben'], startedAt: TUESDAY, lines: PLANNING });
    await endAndExtract(token, first, 'w1');
    const items = (await list(token, `?meetingId=${first}`)).items;
    await app.rest('POST', `/v1/action-items/${items[0]!.id}/done`, { token, body: {} });
    const fromLastTime = async (meetingId: string) => (await app.rest<FromLastTime>('GET', `/v1/action-items/from-last-time?meetingId=${meetingId}`, { token })).body;

    // Same Meet code a week later: the first meeting's items still open, in their order.
    const second = await capture(token, { sessionId: 'w2', meetCode: 'wee-klys-ync', participants: ['Ana', 'Cleo'], startedAt: TUESDAY + week, lines: PLANNING.slice(0, 2) });
    expect(await fromLastTime(second)).toEqual({ meeting: { id: first, title: 'Meeting w1', startedAt: TUESDAY }, items: items.slice(1).map((i) => ({ ...i, updatedAt: expect.any(Number) })) });
    // Another code, the same people (names in another order and case).
    const third = await capture(token, { sessionId: 'w3', meetCode: 'oth-erco-dex', participants: ['ben', 'Ana'], startedAt: TUESDAY + 2 * week, lines: PLANNING.slice(0, 2) });
    expect((await fromLastTime(third)).meeting?.id).toBe(first);
    // Neither: nothing.
    const fourth = await capture(token, { sessionId: 'w4', meetCode: 'new-code-xyz', participants: ['Ana', 'Dora'], startedAt: TUESDAY + 3 * week, lines: PLANNING.slice(0, 2) });
    expect(await fromLastTime(fourth)).toEqual({ meeting: null, items: [] });
    // Only earlier meetings count.
    expect(await fromLastTime(first)).toEqual({ meeting: null, items: [] });
  });

  it('delivers action_item.created and action_item.updated to a subscribed webhook, signed, with the line they came from', { timeout: 120_000 }, async () => {
    const token = await app.signIn('hooks@example.com');
    const created = await app.rest<Webhook>('POST', '/v1/webhooks', {
      token,
      body: { url: `${receiver.url}/items`, events: ['action_item.created', 'action_item.updated'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const meetingId = await capture(token, { sessionId: 'hooked', lines: PLANNING });
    await endAndExtract(token, meetingId, 'hooked');
    const items = (await list(token, `?meetingId=${meetingId}`)).items;
    const payloads = () => receiver.requests.map((r) => JSON.parse(r.rawBody.toString('utf8')) as WebhookPayload);
    await expect.poll(() => payloads().length, { timeout: 30_000, interval: 200 }).toBe(items.length);
    const first = payloads().find((p) => p.event === 'action_item.created' && (p.data as { actionItem: { id: string } }).actionItem.id === items[0]!.id)!;
    expect(first.data).toEqual({
      meeting: { id: meetingId, title: 'Meeting hooked', url: `${PUBLIC_URL}/${meetingId}` },
      actionItem: {
        id: items[0]!.id,
        text: items[0]!.text,
        owner: items[0]!.owner,
        due: items[0]!.due,
        status: 'open',
        source: {
          messageId: items[0]!.source!.messageId,
          speaker: items[0]!.source!.speaker,
          spokenAt: new Date(items[0]!.source!.spokenAt).toISOString(),
          url: `${PUBLIC_URL}/${meetingId}?line=${items[0]!.source!.messageId}`,
        },
      },
    });
    expect(receiver.requests[0]!.headers['mbox-event']).toBe('action_item.created');
    expect(String(receiver.requests[0]!.headers['mbox-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    receiver.requests.length = 0;
    expect((await patch(token, items[0]!.id, { status: 'done', due: '2024-04-01' })).status).toBe(200);
    // Unchanged values, or none, send nothing.
    expect((await patch(token, items[0]!.id, { status: 'done' })).status).toBe(200);
    expect((await patch(token, items[0]!.id, {})).body).toMatchObject({ id: items[0]!.id, status: 'done', due: '2024-04-01' });
    await expect.poll(() => payloads().length, { timeout: 30_000, interval: 200 }).toBe(1);
    expect(payloads()[0]).toMatchObject({
      event: 'action_item.updated',
      data: { actionItem: { id: items[0]!.id, status: 'done', due: '2024-04-01' }, changed: ['due', 'status'], by: 'user' },
    });
    expect(receiver.requests[0]!.headers['mbox-event']).toBe('action_item.updated');
  });
});

describe('action items with an OpenAI-compatible LLM', () => {
  let llm: OpenAiTestServer;
  let app: TestApp;
  beforeAll(async () => {
    // The model answers Action Items as its prompt asks, citing the numbered lines it read.
    llm = await startOpenAiTestServer({
      responder: (body) =>
        isActionItemsRequest(body)
          ? '- **Ben**: fix the export bugs by Friday [4]\n- **Ana**: announce the launch to customers next Tuesday [5]\n- order cake for the launch'
          : 'A summary.',
    });
    app = await startTestApp({ ...testLlmConfig(llm, 5000), JOB_POLL_SECONDS: 0.5 });
  });
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  it("reads the LLM's Action Items and its citations into items, with the lines they cite", { timeout: 60_000 }, async () => {
    const token = await app.signIn('llm@example.com');
    const meetingId = await capture_(app, token, { sessionId: 'llm', lines: PLANNING });
    await endAndExtract_(app, token, meetingId, 'llm');
    const lines = await app.deps.db.message.findMany({ where: { meetingId }, orderBy: { spokenAt: 'asc' } });
    const { items } = await listItems(app, token);
    expect(items.map((i) => [i.owner, i.text, i.due, i.source?.messageId ?? null])).toEqual([
      ['Ben', 'Fix the export bugs by Friday', '2024-03-08', lines[3]!.id],
      ['Ana', 'Announce the launch to customers next Tuesday', '2024-03-12', lines[4]!.id],
      ['Unassigned', 'Order cake for the launch', null, null],
    ]);
  });
});

describe('Open from last time in the recap e-mail', () => {
  let smtp: TestSmtpServer;
  let app: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({ SMTP_URL: smtp.url, JOB_POLL_SECONDS: 0.5, PUBLIC_URL });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it("lists the last meeting's open items, with their owners, due days and a link to that meeting", { timeout: 120_000 }, async () => {
    const token = await app.signIn('recap@example.com');
    const first = await capture_(app, token, { sessionId: 'r1', meetCode: 'rec-apme-eti', lines: PLANNING });
    await endAndExtract_(app, token, first, 'r1');
    const items = (await listItems(app, token, `?meetingId=${first}`)).items;
    const done = items.find((i) => i.owner === 'Ana')!;
    await app.rest('POST', `/v1/action-items/${done.id}/done`, { token, body: {} });

    const second = await capture_(app, token, { sessionId: 'r2', meetCode: 'rec-apme-eti', startedAt: TUESDAY + 7 * DAY_MS, lines: PLANNING });
    await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId: 'r2', finishedAt: TUESDAY + 7 * DAY_MS + 30 * 60_000 } });
    await expect.poll(() => smtp.received.filter((m) => m.parsed.subject?.includes('Meeting r2')).length, { timeout: 60_000, interval: 250 }).toBe(1);
    const mail = smtp.received.find((m) => m.parsed.subject?.includes('Meeting r2'))!;
    const text = mail.parsed.text!;
    expect(text).toContain('Open from last time: Meeting r1 (Mar 5)');
    expect(text).toContain('- Ben: Fix the export bugs and send the release notes. (due Mar 8)');
    expect(text).toContain(`That meeting: ${PUBLIC_URL}/${first}`);
    expect(text).not.toContain(done.text);
    expect(mail.parsed.html).toContain('Open from last time: Meeting r1 (Mar 5)');
    expect(mail.parsed.html).toContain(`href="${PUBLIC_URL}/${first}"`);
    expect(second).not.toBe(first);
    // The first meeting's own recap had nothing from before.
    const firstMail = smtp.received.find((m) => m.parsed.subject?.includes('Meeting r1'))!;
    expect(firstMail.parsed.text).not.toContain('Open from last time');
  });
});
