import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_SUMMARY_MESSAGES, MIN_SUMMARY_SPEAKERS, type SummaryList } from '@mbox/shared';
import { encryptText, ensureDataKey, summaryContext } from '../../crypto/encryption.js';
import { loadConfig } from '../../config.js';
import { startTestApp, type TestApp } from '../../test/app.js';
import { seedMeeting, type SeedLine } from '../../test/fixtures.js';

const talk = (speakers: string[], count: number): SeedLine[] =>
  Array.from({ length: count }, (_, i) => ({ speaker: speakers[i % speakers.length]!, text: `line ${i}` }));

describe('summary list', () => {
  let app: TestApp;
  let ana: string;
  let bo: string;
  let meetingKey: string;
  beforeAll(async () => {
    app = await startTestApp();
    ana = await app.signIn('ana@example.com');
    bo = await app.signIn('bo@example.com');
    ({ meetingKey } = await seedMeeting(app, ana, 'full', talk(['Ana', 'Bo'], MIN_SUMMARY_MESSAGES)));
  });
  afterAll(() => app.close());

  it('is empty and enabled for a meeting with enough messages from enough speakers', async () => {
    expect(MIN_SUMMARY_SPEAKERS).toBe(2);
    const list = await app.rest<SummaryList>('GET', `/v1/summary-list/${meetingKey}`, { token: ana });
    expect(list).toEqual({ status: 200, body: { summaries: [], summariesDisabled: false, promptList: 'default' } });
  });

  it('is disabled with too few messages or too few speakers', async () => {
    const few = await seedMeeting(app, ana, 'few', talk(['Ana', 'Bo'], MIN_SUMMARY_MESSAGES - 1));
    const alone = await seedMeeting(app, ana, 'alone', talk(['Ana'], MIN_SUMMARY_MESSAGES + 3));
    for (const { meetingKey: key } of [few, alone]) {
      const list = await app.rest<SummaryList>('GET', `/v1/summary-list/${key}`, { token: ana });
      expect(list.body.summariesDisabled).toBe(true);
    }
  });

  it('returns the stored summaries with translations, decrypting encrypted ones for the owner', async () => {
    const db = app.deps.db;
    const owner = await db.user.findUniqueOrThrow({ where: { email: 'ana@example.com' } });
    const plain = await db.summary.create({
      data: {
        meetingId: meetingKey,
        promptKey: 'summary',
        title: 'Summary',
        text: '<p>We ship Friday.</p>',
        // A stored entry for an unknown language is left out rather than failing the list.
        translations: { fr: { text: '<p>Livraison vendredi.</p>' }, xx: { text: 'nope' }, de: 'broken' },
        // So is a malformed citation; the others come by number.
        citations: [{ n: 2, messageId: 'm2', spokenAt: 2000, speaker: 'Bo' }, { n: 'x' }, { n: 1, messageId: 'm1', spokenAt: 1000, speaker: 'Ana' }],
      },
    });
    const key = await ensureDataKey(db, app.deps.secrets.masterKey, owner.id);
    const sealed = await db.summary.create({
      data: {
        meetingId: meetingKey,
        promptKey: 'custom',
        customPrompt: 'Who pays?',
        title: 'Who pays?',
        text: encryptText(key, '<p>Bo pays.</p>', summaryContext(meetingKey)),
        translations: { pl: { text: encryptText(key, '<p>Bo płaci.</p>', summaryContext(meetingKey)) } },
        encrypted: true,
      },
    });
    await db.summary.create({ data: { meetingId: meetingKey, promptKey: 'retired-prompt', title: 'Old', text: 'old' } });

    const list = await app.rest<SummaryList>('GET', `/v1/summary-list/${meetingKey}`, { token: ana });
    expect(list.status).toBe(200);
    expect(list.body.summaries).toEqual([
      {
        docId: plain.id,
        type: 'summary',
        title: 'Summary',
        text: '<p>We ship Friday.</p>',
        translations: { fr: { text: '<p>Livraison vendredi.</p>' } },
        encrypted: false,
        promptKey: 'summary',
        customPrompt: '',
        model: '',
        citations: [
          { n: 1, messageId: 'm1', spokenAt: 1000, speaker: 'Ana' },
          { n: 2, messageId: 'm2', spokenAt: 2000, speaker: 'Bo' },
        ],
      },
      {
        docId: sealed.id,
        type: 'summary',
        title: 'Who pays?',
        text: '<p>Bo pays.</p>',
        translations: { pl: { text: '<p>Bo płaci.</p>' } },
        encrypted: true,
        promptKey: 'custom',
        customPrompt: 'Who pays?',
        model: '',
        citations: [],
      },
    ]);
    expect((await app.trpc(ana).summary.list.query({ id: meetingKey })).summaries).toHaveLength(2);
  });

  it("answers 404 for another user's or an unknown meeting, 401 without a token, 400 for a malformed id", async () => {
    const foreign = await app.rest<{ message: string; code: string }>('GET', `/v1/summary-list/${meetingKey}`, { token: bo });
    expect(foreign).toEqual({
      status: 404,
      body: { message: 'Meeting not found', code: 'NOT_FOUND', data: { code: 'NOT_FOUND', httpStatus: 404 } },
    });
    expect((await app.rest('GET', '/v1/summary-list/nope', { token: ana })).status).toBe(404);
    expect((await app.rest('GET', `/v1/summary-list/${meetingKey}`)).status).toBe(401);
    const tooLong = await app.rest<{ data: { field: string } }>('GET', `/v1/summary-list/${'x'.repeat(101)}`, { token: ana });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.data.field).toBe('id');
  });
});

describe('prompt list of the summary list (SUMMARY_PROMPT_LIST)', () => {
  it("says 'alternate' when the server is configured for the alternate list", async () => {
    const app = await startTestApp({ SUMMARY_PROMPT_LIST: 'alternate' });
    try {
      const token = await app.signIn('cy@example.com');
      const { meetingKey } = await seedMeeting(app, token, 'alt', talk(['Cy', 'Di'], MIN_SUMMARY_MESSAGES));
      const list = await app.rest<SummaryList>('GET', `/v1/summary-list/${meetingKey}`, { token });
      expect(list.status).toBe(200);
      expect(list.body.promptList).toBe('alternate');
      expect((await app.trpc(token).summary.list.query({ id: meetingKey })).promptList).toBe('alternate');
    } finally {
      await app.close();
    }
  });

  it('refuses an unknown list name at start-up, naming the variable', () => {
    expect(() => loadConfig({ SUMMARY_PROMPT_LIST: 'short' })).toThrow(/SUMMARY_PROMPT_LIST/);
  });
});
