import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_URL_LENGTH, type MeetingDetail } from '@mbox/shared';
import type { AppRouter } from '../trpc/app-router.js';
import { startTestApp, type TestApp } from './app.js';
import { seedMeeting } from './fixtures.js';

/** Every character percent-encoded, as a client may legally send it. */
const encodeAll = (text: string) => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

describe('tRPC batches and REST path parameters', () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await startTestApp();
    token = await app.signIn('batch@example.com');
  });
  afterAll(() => app.close());

  it('answers GET batches of any size the web app makes (its link splits them at MAX_REQUEST_URL_LENGTH)', async () => {
    const client = createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: `${app.url}/trpc`, maxURLLength: MAX_REQUEST_URL_LENGTH, headers: { authorization: `Bearer ${token}` } })],
    });
    // What a screen reads at once, many times over: paths far past Fastify's old 100-character limit.
    const calls = Array.from({ length: 120 }, (_, i) =>
      [
        () => client.auth.me.query(),
        () => client.settings.get.query(),
        () => client.meeting.list.query({ limit: 1 + (i % 50), offset: 0 }),
        () => client.meeting.grouped.query({ limit: 1 + (i % 50), offset: 0 }),
      ][i % 4]!(),
    );
    const results = await Promise.allSettled(calls);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);

    // One batch right at the limit: its procedure list alone is thousands of characters.
    const paths = Array.from({ length: 200 }, () => 'settings.get').join(',');
    const url = `/trpc/${paths}?batch=1&input=${encodeURIComponent('{}')}`;
    expect(url.length).toBeGreaterThan(2000);
    expect(url.length).toBeLessThan(MAX_REQUEST_URL_LENGTH);
    const response = await fetch(`${app.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBe(200);
  });

  it('percent-decodes REST path parameters', async () => {
    const { meetingKey, messages } = await seedMeeting(app, token, 'decode', [{ speaker: 'Ana', text: 'hi' }]);
    const encoded = await app.rest<MeetingDetail>('GET', `/v1/meeting/${encodeAll(meetingKey)}`, { token });
    expect(encoded.status).toBe(200);
    expect(encoded.body.meet.key).toBe(meetingKey);
    const comment = await app.rest('PUT', `/v1/message/comment/${encodeAll(messages[0]!.key)}`, { token, body: { comment: 'found' } });
    expect(comment.status).toBe(200);
    // A malformed escape is refused by Fastify's router, naming the URL.
    const malformed = await app.rest<{ message: string }>('GET', '/v1/meeting/%E0%A4%A', { token });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('%E0%A4%A');
  });
});
