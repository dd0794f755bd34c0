import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENCRYPTED_SHARE_REFUSAL, SHARE_TOKEN_PATTERN, apiErrorBodySchema, sharedMeetingSchema, type SharedMeeting } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { makePremium, seedMeeting } from '../../test/fixtures.js';

const TALK = [
  { speaker: 'Ana', text: 'Welcome to the planning call' },
  { speaker: 'Bo', text: 'Thanks, I will send the budget by Friday' },
  { speaker: 'Ana', text: 'Great, then we ship in May' },
];

/** The token at the end of a share URL. */
const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;

/** An anonymous GET of the shared meeting, as a browser without cookies makes it. */
async function view(app: TestApp, token: string) {
  const response = await fetch(`${app.url}/v1/shared/${encodeURIComponent(token)}`);
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

describe('share links', () => {
  let app: TestApp;
  let ana: string;
  let bo: string;
  let meetingKey: string;
  let citedMessage: string;

  beforeAll(async () => {
    app = await startTestApp();
    ana = await app.signIn('ana@example.com');
    bo = await app.signIn('bo@example.com');
    const seeded = await seedMeeting(app, ana, 'planning', TALK);
    meetingKey = seeded.meetingKey;
    await app.deps.db.meeting.update({ where: { id: meetingKey }, data: { title: 'Planning', users: ['Ana', 'Bo', 'Ana'] } });
    // What the owner added, none of which a shared link shows.
    const [first, second] = seeded.messages;
    await app.deps.db.message.update({ where: { id: first!.key }, data: { comment: 'private note', marks: ['important', 'commented'] } });
    await app.deps.db.message.update({ where: { id: second!.key }, data: { aiFixed: 'Thanks. I will send the budget by Friday.' } });
    citedMessage = second!.key;
    await app.deps.db.summary.create({
      data: {
        meetingId: meetingKey,
        promptKey: 'summary',
        title: 'Summary',
        text: '<p>Budget by <strong>Friday</strong><sup class="cite" data-cite="1">[1]</sup>.</p><script>alert(1)</script>',
        citations: [{ n: 1, messageId: second!.key, spokenAt: second!.spokenAt, speaker: 'Bo' }],
      },
    });
    await app.deps.db.summary.create({
      data: { meetingId: meetingKey, promptKey: 'custom', customPrompt: 'Is Bo reliable?', title: 'Is Bo reliable?', text: '<p>private answer</p>' },
    });
  });
  afterAll(() => app.close());

  it('the owner creates a link; anyone opens it and sees exactly title, date, participants, lines and summaries', async () => {
    const created = await app.rest<{ url: string }>('POST', `/v1/meeting/${meetingKey}/share`, { token: ana });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body)).toEqual(['url']);
    expect(created.body.url).toMatch(/^http:\/\/localhost:0\/shared\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(created.body.url);
    // 43 base64url characters carry 258 bits, of which 256 are random bytes: well past 128 bits.
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(SHARE_TOKEN_PATTERN.test(token)).toBe(true);

    const shared = await view(app, token);
    expect(shared.status).toBe(200);
    expect(shared.headers.get('cache-control')).toBe('no-store');
    expect(shared.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(shared.headers.get('referrer-policy')).toBe('no-referrer');
    const meeting = sharedMeetingSchema.strict().parse(shared.body) as SharedMeeting;
    expect(meeting).toEqual({
      title: 'Planning',
      date: Date.UTC(2026, 10, 20, 15, 0),
      finishedAt: null,
      participants: ['Ana', 'Bo'],
      lines: TALK.map((line, i) => ({ speaker: line.speaker, text: line.text, spokenAt: Date.UTC(2026, 10, 20, 15, 0) + i * 1000 })),
      // Sanitised again on the way out; the answer to the owner's own question is not a summary.
      // Citations come as times only: the link opens no lines.
      summaries: [
        {
          title: 'Summary',
          html: '<p>Budget by <strong>Friday</strong><sup class="cite" data-cite="1">[1]</sup>.</p>',
          citations: [{ n: 1, spokenAt: Date.UTC(2026, 10, 20, 15, 0) + 1000 }],
        },
      ],
    });
    for (const line of meeting.lines) expect(Object.keys(line).sort()).toEqual(['speaker', 'spokenAt', 'text']);
    const raw = JSON.stringify(shared.body);
    for (const secret of ['private note', 'important', 'commented', 'Thanks.', 'private answer', 'Is Bo reliable', meetingKey, 'abc-defg-hij', citedMessage]) {
      expect(raw).not.toContain(secret);
    }

    // The database holds the hash, never the token.
    const row = await app.deps.db.meeting.findUniqueOrThrow({ where: { id: meetingKey }, select: { shareTokenHash: true, sharedAt: true } });
    expect(row.shareTokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(row.sharedAt).toBeInstanceOf(Date);
    const [dump] = await app.deps.db.$queryRaw<{ dump: string }[]>`
      SELECT row_to_json(m)::text AS dump FROM (SELECT id, "shareTokenHash", "sharedAt", title FROM "Meeting") m`;
    expect(dump?.dump).not.toContain(token);

    const status = await app.rest<{ shared: boolean; sharedAt: number | null }>('GET', `/v1/meeting/${meetingKey}/share`, { token: ana });
    expect(status.body).toEqual({ shared: true, sharedAt: row.sharedAt!.getTime() });
  });

  it('revoking makes the link 404 (idempotently); a new link replaces the old one', async () => {
    const first = tokenOf((await app.rest<{ url: string }>('POST', `/v1/meeting/${meetingKey}/share`, { token: ana })).body.url);
    const second = tokenOf((await app.rest<{ url: string }>('POST', `/v1/meeting/${meetingKey}/share`, { token: ana })).body.url);
    expect(second).not.toBe(first);
    const old = await view(app, first);
    expect(old.status).toBe(404);
    expect(apiErrorBodySchema.parse(old.body)).toMatchObject({ code: 'NOT_FOUND', data: { code: 'NOT_FOUND', httpStatus: 404 } });
    expect((await view(app, second)).status).toBe(200);

    for (let i = 0; i < 2; i++) {
      const revoked = await app.rest('DELETE', `/v1/meeting/${meetingKey}/share`, { token: ana });
      expect(revoked).toEqual({ status: 200, body: { success: true } });
    }
    expect((await view(app, second)).status).toBe(404);
    expect((await app.rest('GET', `/v1/meeting/${meetingKey}/share`, { token: ana })).body).toEqual({ shared: false, sharedAt: null });
  });

  it('unknown, malformed and empty tokens answer the same 404', async () => {
    const unknown = await view(app, Buffer.alloc(32, 1).toString('base64url'));
    expect(unknown.status).toBe(404);
    expect(apiErrorBodySchema.parse(unknown.body).message).toBe('Shared meeting not found: the link is wrong or sharing was stopped');
    expect((await view(app, 'short')).status).toBe(404);
    const hash = (await app.deps.db.meeting.findUniqueOrThrow({ where: { id: meetingKey } })).shareTokenHash;
    // The stored hash is no key either.
    if (hash) expect((await view(app, hash)).status).toBe(404);
  });

  it("another user can neither share, see the status of nor revoke the meeting: 404 as for no meeting", async () => {
    const created = await app.rest<{ url: string }>('POST', `/v1/meeting/${meetingKey}/share`, { token: ana });
    for (const method of ['POST', 'GET', 'DELETE']) {
      const foreign = await app.rest<{ message: string }>(method, `/v1/meeting/${meetingKey}/share`, { token: bo });
      expect(foreign.status, method).toBe(404);
      expect(foreign.body.message).toBe('Meeting not found');
      expect((await app.rest(method, '/v1/meeting/no-such-meeting/share', { token: ana })).status).toBe(404);
    }
    expect((await view(app, tokenOf(created.body.url))).status).toBe(200);
    expect((await app.rest('POST', `/v1/meeting/${meetingKey}/share`)).status).toBe(401);
  });

  it('extension tokens cannot share', async () => {
    const extension = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token: ana })).body.token;
    const refused = await app.rest<{ message: string }>('POST', `/v1/meeting/${meetingKey}/share`, { token: extension });
    expect(refused.status).toBe(403);
  });

  it('an encrypted meeting cannot be shared, and encrypting a shared meeting stops sharing it', async () => {
    await makePremium(app, 'ana@example.com');
    const { meetingKey: other } = await seedMeeting(app, ana, 'secret', TALK);
    const token = tokenOf((await app.rest<{ url: string }>('POST', `/v1/meeting/${other}/share`, { token: ana })).body.url);
    expect((await view(app, token)).status).toBe(200);

    expect((await app.rest('PUT', `/v1/p/meeting/encrypt/${other}`, { token: ana })).status).toBe(200);
    expect((await view(app, token)).status).toBe(404);
    const row = await app.deps.db.meeting.findUniqueOrThrow({ where: { id: other } });
    expect(row).toMatchObject({ encrypted: true, shareTokenHash: null, sharedAt: null });

    const refused = await app.rest<unknown>('POST', `/v1/meeting/${other}/share`, { token: ana });
    expect(refused.status).toBe(412);
    expect(apiErrorBodySchema.parse(refused.body)).toMatchObject({ code: 'PRECONDITION_FAILED', message: ENCRYPTED_SHARE_REFUSAL });
    expect((await app.deps.db.meeting.findUniqueOrThrow({ where: { id: other } })).shareTokenHash).toBeNull();
  });

  it('a line encrypted on its own is left out of the shared view', async () => {
    await makePremium(app, 'ana@example.com');
    const { meetingKey: other, messages } = await seedMeeting(app, ana, 'one-sealed', TALK);
    const token = tokenOf((await app.rest<{ url: string }>('POST', `/v1/meeting/${other}/share`, { token: ana })).body.url);
    expect((await app.rest('PUT', `/v1/p/message/encrypt/${messages[1]!.key}`, { token: ana })).status).toBe(200);
    const shared = (await view(app, token)).body as SharedMeeting;
    expect(shared.lines.map((l) => l.text)).toEqual([TALK[0]!.text, TALK[2]!.text]);
  });

  it('deleting the meeting kills the link', async () => {
    const { meetingKey: other } = await seedMeeting(app, ana, 'deleted', TALK);
    const token = tokenOf((await app.rest<{ url: string }>('POST', `/v1/meeting/${other}/share`, { token: ana })).body.url);
    expect((await app.rest('DELETE', `/v1/meeting/${other}`, { token: ana })).status).toBe(200);
    expect((await view(app, token)).status).toBe(404);
  });

  it('the tRPC call answers like the REST one, without a session', async () => {
    const token = tokenOf((await app.rest<{ url: string }>('POST', `/v1/meeting/${meetingKey}/share`, { token: ana })).body.url);
    const shared = await app.trpc().share.view.query({ token });
    expect(shared.title).toBe('Planning');
    await expect(app.trpc().share.view.query({ token: 'x'.repeat(43) })).rejects.toMatchObject({ data: { httpStatus: 404 } });
  });

  it('the OpenAPI document has the share calls: the view is public, the others need a sign-in', async () => {
    const { body } = await app.rest<{ paths: Record<string, Record<string, { security: unknown[]; responses: Record<string, unknown> }>> }>(
      'GET',
      '/v1/openapi.json',
    );
    const share = body.paths['/meeting/{id}/share']!;
    expect(Object.keys(share).sort()).toEqual(['delete', 'get', 'post']);
    expect(share.post!.security).not.toEqual([]);
    expect(share.post!.responses).toHaveProperty('412');
    const viewOp = body.paths['/shared/{token}']!.get!;
    expect(viewOp.security).toEqual([]);
    expect(viewOp.responses).toHaveProperty('404');
    expect(viewOp.responses).toHaveProperty('429');
  });
});

describe('share link rate limit', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_SHARED: { max: 3, windowMs: 60_000 } });
  });
  afterAll(() => app.close());

  it('answers 429 with Retry-After once a client address has made RATE_LIMIT_SHARED views', async () => {
    const probe = () => fetch(`${app.url}/v1/shared/${Buffer.alloc(32, Math.random() * 255).toString('base64url')}`);
    for (let i = 0; i < 3; i++) expect((await probe()).status).toBe(404);
    const limited = await probe();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(apiErrorBodySchema.parse(await limited.json()).message).toMatch(/^Too many shared-meeting views from your address/);
  });
});
