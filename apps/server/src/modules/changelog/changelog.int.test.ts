import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangelogEntry } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { CHANGELOG } from './service.js';

describe('changelog', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('answers the released versions of CHANGELOG.md', async () => {
    const token = await app.signIn();
    const response = await app.rest<ChangelogEntry[]>('GET', '/v1/changelog', { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(CHANGELOG);
    expect(response.body.at(-1)).toMatchObject({ version: '0.1.0', date: '2026-11-22' });
    expect(response.body[0]?.changes[0]?.subChanges?.length).toBeGreaterThan(0);
    expect(await app.trpc(token).changelog.list.query()).toEqual(CHANGELOG);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await app.rest<{ paths: Record<string, unknown> }>('GET', '/v1/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/changelog']));
  });

  it('answers 401 without a valid token', async () => {
    expect((await app.rest('GET', '/v1/changelog')).status).toBe(401);
  });
});
