import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PERSONAL_TOKENS, PERSONAL_TOKEN_PREFIX, type PersonalTokenCreated, type PersonalTokenList } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { seedMeeting } from '../../test/fixtures.js';

type ErrorBody = { message: string; code: string; data: { httpStatus: number; field?: string } };

describe('personal access tokens', () => {
  let app: TestApp;
  let ana: string;
  let bo: string;

  const create = (token: string, body: unknown) => app.rest<PersonalTokenCreated & ErrorBody>('POST', '/v1/access-tokens', { token, body });

  beforeAll(async () => {
    app = await startTestApp();
    ana = await app.signIn('ana@example.com');
    bo = await app.signIn('bo@example.com');
  });
  afterAll(() => app.close());

  it('creates a named token of a scope, shows its secret once and stores only its hash', async () => {
    const before = Date.now();
    const created = await create(ana, { name: '  Claude Desktop  ', scope: 'read' });
    expect(created.status).toBe(200);
    expect(created.body.token.startsWith(PERSONAL_TOKEN_PREFIX)).toBe(true);
    expect(created.body.accessToken).toMatchObject({ name: 'Claude Desktop', scope: 'read', lastUsedAt: null });
    expect(created.body.accessToken.createdAt).toBeGreaterThanOrEqual(before - 1000);

    const row = await app.deps.db.personalAccessToken.findUniqueOrThrow({ where: { id: created.body.accessToken.id } });
    expect(row.tokenHash).toBe(createHash('sha256').update(created.body.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.body.token);

    const list = await app.rest<PersonalTokenList>('GET', '/v1/access-tokens', { token: ana });
    expect(list.status).toBe(200);
    const listed = list.body.tokens.find((t) => t.id === created.body.accessToken.id);
    expect(listed).toEqual(created.body.accessToken);
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
    // Another user's list does not hold it.
    const other = await app.rest<PersonalTokenList>('GET', '/v1/access-tokens', { token: bo });
    expect(other.body.tokens.map((t) => t.id)).not.toContain(created.body.accessToken.id);
  });

  it('a read token reads over /v1 and /trpc, and is refused with 403 naming the scope on every change', async () => {
    const { meetingKey } = await seedMeeting(app, ana, 'pat-read', [{ speaker: 'Ana', text: 'The budget is final.' }]);
    const read = (await create(ana, { name: 'reader', scope: 'read' })).body.token;

    const list = await app.rest<{ key: string }[]>('GET', '/v1/meeting-list', { token: read });
    expect(list.status).toBe(200);
    expect(list.body.map((m) => m.key)).toContain(meetingKey);
    expect((await app.trpc(read).meeting.get.query({ id: meetingKey })).meet.key).toBe(meetingKey);
    // A question across meetings is a POST, but changes nothing: the read scope may ask it.
    const asked = await app.rest<{ citations: { meetingId: string }[] }>('POST', '/v1/ask', { token: read, body: { question: 'What about the budget?' } });
    expect(asked.status).toBe(200);
    expect(asked.body.citations.map((c) => c.meetingId)).toContain(meetingKey);

    const deleted = await app.rest<ErrorBody>('DELETE', `/v1/meeting/${meetingKey}`, { token: read });
    expect(deleted.status).toBe(403);
    expect(deleted.body.message).toBe('This access token has the read scope: meeting.delete changes data and needs the write scope');
    await expect(app.trpc(read).meeting.delete.mutate({ id: meetingKey })).rejects.toThrow(/read scope.*needs the write scope/);
    // Summaries stored through the stream need it too.
    await expect(
      new Promise((resolve, reject) => {
        const sub = app.trpc(read).summary.generateStream.subscribe(
          { meetKey: meetingKey, promptKey: 'summary' },
          { onData: resolve, onError: (error) => (sub.unsubscribe(), reject(error)) },
        );
      }),
    ).rejects.toThrow(/summary.generateStream changes data and needs the write scope/);
    expect(await app.deps.db.meeting.count({ where: { id: meetingKey } })).toBe(1);
  });

  it('a write token makes changes; another user’s meeting stays not found', async () => {
    const { meetingKey } = await seedMeeting(app, ana, 'pat-write', [{ speaker: 'Ana', text: 'Delete me later.' }]);
    const writeAna = (await create(ana, { name: 'writer', scope: 'write' })).body.token;
    const writeBo = (await create(bo, { name: 'bo writer', scope: 'write' })).body.token;

    const foreign = await app.rest<ErrorBody>('DELETE', `/v1/meeting/${meetingKey}`, { token: writeBo });
    expect(foreign.status).toBe(404);
    expect((await app.rest<ErrorBody>('GET', `/v1/meeting/${meetingKey}`, { token: writeBo })).status).toBe(404);

    const deleted = await app.rest('DELETE', `/v1/meeting/${meetingKey}`, { token: writeAna });
    expect(deleted.status).toBe(200);
    expect(await app.deps.db.meeting.count({ where: { id: meetingKey } })).toBe(0);
  });

  it('records the last use', async () => {
    const created = (await create(ana, { name: 'last use', scope: 'read' })).body;
    expect((await app.rest('GET', '/v1/auth/me', { token: created.token })).status).toBe(200);
    const list = await app.rest<PersonalTokenList>('GET', '/v1/access-tokens', { token: ana });
    const listed = list.body.tokens.find((t) => t.id === created.accessToken.id);
    expect(listed?.lastUsedAt).toBeGreaterThanOrEqual(created.accessToken.createdAt);
  });

  it('a revoked token is refused at once with 401 naming why', async () => {
    const created = (await create(ana, { name: 'to revoke', scope: 'write' })).body;
    // Used first, so its owner is in the credential cache: revocation must still take effect at once.
    expect((await app.rest('GET', '/v1/meeting-list', { token: created.token })).status).toBe(200);

    expect((await app.rest('DELETE', `/v1/access-tokens/${created.accessToken.id}`, { token: bo })).status).toBe(404);
    const revoked = await app.rest<{ revoked: true }>('DELETE', `/v1/access-tokens/${created.accessToken.id}`, { token: ana });
    expect(revoked).toEqual({ status: 200, body: { revoked: true } });

    const refused = await app.rest<ErrorBody>('GET', '/v1/meeting-list', { token: created.token });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('Sign in required: Access token revoked: create a new one in Settings › Access tokens');
    const list = await app.rest<PersonalTokenList>('GET', '/v1/access-tokens', { token: ana });
    expect(list.body.tokens.map((t) => t.id)).not.toContain(created.accessToken.id);
    const again = await app.rest<ErrorBody>('DELETE', `/v1/access-tokens/${created.accessToken.id}`, { token: ana });
    expect(again.status).toBe(404);

    const unknown = await app.rest<ErrorBody>('GET', '/v1/meeting-list', { token: `${PERSONAL_TOKEN_PREFIX}nothing` });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toContain('Access token unknown');
  });

  it('a personal token cannot manage tokens or delete the account; an extension token cannot either', async () => {
    const write = (await create(ana, { name: 'no minting', scope: 'write' })).body.token;
    const minted = await create(write, { name: 'child', scope: 'write' });
    expect(minted.status).toBe(403);
    expect(minted.body.message).toContain('Personal access tokens cannot make this call');
    expect((await app.rest('GET', '/v1/access-tokens', { token: write })).status).toBe(403);
    const deletion = await app.rest<ErrorBody>('POST', '/v1/account/delete', { token: write, body: { confirm: 'ana@example.com' } });
    expect(deletion.status).toBe(403);
    expect(await app.deps.db.user.count({ where: { email: 'ana@example.com' } })).toBe(1);

    const extension = (await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token: ana })).body.token;
    const byExtension = await create(extension, { name: 'x', scope: 'read' });
    expect(byExtension.status).toBe(403);
    expect(byExtension.body.message).toContain('Extension tokens may only send transcripts');
  });

  it('refuses bad input with 400 naming the field, and more than the limit of live tokens', async () => {
    const empty = await create(ana, { name: '   ', scope: 'read' });
    expect(empty.status).toBe(400);
    expect(empty.body.data.field).toBe('name');
    const scope = await create(ana, { name: 'admin', scope: 'admin' });
    expect(scope.status).toBe(400);
    expect(scope.body.data.field).toBe('scope');
    const long = await create(ana, { name: 'x'.repeat(101), scope: 'read' });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('name must be at most 100 characters');
    expect((await create(ana, { name: 'extra', scope: 'read', admin: true })).status).toBe(400);

    const carl = await app.signIn('carl@example.com');
    for (let i = 0; i < MAX_PERSONAL_TOKENS; i++) expect((await create(carl, { name: `t${i}`, scope: 'read' })).status).toBe(200);
    const over = await create(carl, { name: 'one too many', scope: 'read' });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(`An account holds at most ${MAX_PERSONAL_TOKENS} access tokens: revoke one you no longer use first`);
  });
});
