import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_YOUTUBE_LINK, type SummarizeResult, type YouTubeInfo } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { startFakeYouTube, type FakeVideo, type LocalServer } from '../../test/page-servers.js';
import { NO_CAPTIONS, VIDEO_UNAVAILABLE, youTubeVideoId } from './youtube.js';

const TALK = 'aBcDeFgHi_1';
const SILENT = 'noCaptions1';
const GONE = 'gone-000000';

const talkCaptions: [number, number, string][] = [
  'welcome everyone to this short talk about composting at home',
  'composting turns kitchen scraps and garden waste into rich soil',
  'you need a mix of green material like vegetable peels and brown material like dry leaves',
  'keep the pile as damp as a wrung out sponge and turn it every week',
  'the bacteria need air so a pile that smells bad usually needs more turning',
  'avoid meat and dairy because they attract rats',
  'after two to three months the compost is dark and crumbly and ready for the garden',
  "a city study found that home composting cuts household waste by about thirty percent",
  "that's all for today, thanks for watching & see you next week",
].map((text, i) => [i * 6.5, 6.2, text]);

const videos: Record<string, FakeVideo> = {
  [TALK]: { title: 'Composting at Home in 3 Minutes', author: 'Green Thumb Weekly', lengthSeconds: 212, captions: talkCaptions },
  [SILENT]: { title: 'Relaxing Rain Sounds', author: 'Calm Channel', lengthSeconds: 3600 },
  [GONE]: { title: 'Removed', author: 'Nobody', lengthSeconds: 1, status: 'ERROR' },
};

interface ErrorBody {
  message: string;
  error: string;
}

describe('YouTube summaries', () => {
  let app: TestApp;
  let youtube: LocalServer;
  let token: string;
  beforeAll(async () => {
    youtube = await startFakeYouTube(videos);
    app = await startTestApp({ YOUTUBE_BASE_URL: youtube.url });
    token = await app.signIn('viewer@example.com');
  });
  afterAll(async () => {
    await app.close();
    await youtube.close();
  });

  it('reads the video id of watch, youtu.be, shorts and embed links only', () => {
    for (const link of [
      `https://www.youtube.com/watch?v=${TALK}`,
      `youtube.com/watch?v=${TALK}&t=42s`,
      `https://m.youtube.com/watch?feature=share&v=${TALK}`,
      `https://youtu.be/${TALK}?si=abc`,
      `https://www.youtube.com/shorts/${TALK}`,
      `https://www.youtube.com/embed/${TALK}?autoplay=1`,
    ]) {
      expect(youTubeVideoId(link), link).toBe(TALK);
    }
    for (const link of [
      'https://www.youtube.com/',
      'https://www.youtube.com/channel/UCfakeChannel000000000000',
      'https://www.youtube.com/watch?v=short',
      'https://vimeo.com/123456',
      `https://evil.example/?q=youtube.com/watch?v=${TALK}`,
      `https://youtube.com.evil.example/watch?v=${TALK}`,
    ]) {
      expect(youTubeVideoId(link), link).toBeNull();
    }
  });

  it('summarises a video from its captions, with its title and length as metadata', async () => {
    const { status, body } = await app.rest<{ result: SummarizeResult }>('POST', '/v1/utils/youtube', {
      token,
      body: { link: `https://youtu.be/${TALK}` },
    });
    expect(status).toBe(200);
    const { summary, metadata, source } = body.result;
    expect(source).toMatchObject({
      kind: 'youtube',
      title: 'Composting at Home in 3 Minutes',
      site: 'Green Thumb Weekly',
      url: `https://www.youtube.com/watch?v=${TALK}`,
      durationSeconds: 212,
    });
    expect(source.words).toBe(talkCaptions.flatMap(([, , t]) => t.split(/\s+/)).filter((w) => /\w/.test(w)).length);
    expect(summary.toLowerCase()).toContain('compost');
    expect(summary).not.toContain('The video:');
    expect(metadata).toContain('<b>Title:</b> <a href="https://www.youtube.com/watch?v=aBcDeFgHi_1"');
    expect(metadata).toContain('Composting at Home in 3 Minutes</a>');
    expect(metadata).toContain('<b>Length:</b> 3:32');
    expect(metadata).toContain('<b>Channel:</b> Green Thumb Weekly');
    // Player API and caption track went to YOUTUBE_BASE_URL, nowhere else.
    expect(youtube.requests).toContain('POST /youtubei/v1/player');
    expect(youtube.requests).toContain('GET /api/timedtext');
  });

  it('answers the public call the same way, and the page summarizer passes video links on to it', async () => {
    const viaPublic = await app.rest<{ result: SummarizeResult }>('POST', '/v1/public/utils/youtube', {
      body: { link: `https://www.youtube.com/shorts/${TALK}` },
    });
    expect(viaPublic.status).toBe(200);
    const viaSummary = await app.rest<{ result: SummarizeResult }>('POST', '/v1/utils/summary', {
      token,
      body: { link: `https://www.youtube.com/embed/${TALK}` },
    });
    expect(viaSummary.status).toBe(200);
    expect(viaSummary.body.result).toEqual(viaPublic.body.result);
  });

  it('says when a video has no captions, is gone, or the link is not a video link', async () => {
    const silent = await app.rest<ErrorBody>('POST', '/v1/utils/youtube', { token, body: { link: `https://www.youtube.com/watch?v=${SILENT}` } });
    expect(silent.status).toBe(422);
    expect(silent.body).toMatchObject({ error: NO_CAPTIONS, message: NO_CAPTIONS });
    const gone = await app.rest<ErrorBody>('POST', '/v1/public/utils/youtube', { body: { link: `https://youtu.be/${GONE}` } });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe(VIDEO_UNAVAILABLE);
    for (const link of ['https://vimeo.com/123456', 'https://www.youtube.com/channel/UCx', 'not a link']) {
      const invalid = await app.rest<ErrorBody>('POST', '/v1/utils/youtube', { token, body: { link } });
      expect(invalid.status, link).toBe(400);
      expect(invalid.body.error, link).toBe(INVALID_YOUTUBE_LINK);
    }
    const text = await app.rest<ErrorBody>('POST', '/v1/utils/youtube', { token, body: { text: 'a '.repeat(50) } });
    expect(text.status).toBe(400);
    expect(text.body.error).toMatch(/needs a YouTube link/);
  });

  it('GET /v1/utils/youtube?link= tells title, length and whether captions exist', async () => {
    const talk = await app.rest<YouTubeInfo>('GET', `/v1/utils/youtube?link=${encodeURIComponent(`https://youtu.be/${TALK}`)}`, { token });
    expect(talk).toEqual({
      status: 200,
      body: {
        videoId: TALK,
        url: `https://www.youtube.com/watch?v=${TALK}`,
        title: 'Composting at Home in 3 Minutes',
        author: 'Green Thumb Weekly',
        durationSeconds: 212,
        hasCaptions: true,
      },
    });
    const silent = await app.rest<YouTubeInfo>('GET', `/v1/utils/youtube?link=${encodeURIComponent(`youtube.com/watch?v=${SILENT}`)}`, { token });
    expect(silent.body).toMatchObject({ hasCaptions: false, durationSeconds: 3600, title: 'Relaxing Rain Sounds' });
    expect((await app.rest('GET', `/v1/utils/youtube?link=${TALK}`)).status).toBe(401);
    const invalid = await app.rest<ErrorBody>('GET', '/v1/utils/youtube?link=https%3A%2F%2Fexample.com', { token });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe(INVALID_YOUTUBE_LINK);
  });

  it('answers 502 when YouTube cannot be reached', async () => {
    const offline = await startTestApp({ YOUTUBE_BASE_URL: 'http://127.0.0.1:9' });
    try {
      const response = await offline.rest<ErrorBody>('POST', '/v1/public/utils/youtube', { body: { link: `https://youtu.be/${TALK}` } });
      expect(response.status).toBe(502);
      expect(response.body.error).toMatch(/YouTube could not be reached/);
    } finally {
      await offline.close();
    }
  });
});
