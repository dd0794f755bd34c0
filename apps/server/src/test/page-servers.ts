import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '../db/paths.js';

/** Test-only HTTP servers for the summarizer: web pages (real and hostile) and a fake YouTube. */

export const ARTICLE_FIXTURES = ['lighthouse-keepers', 'sourdough-starter', 'council-bike-lanes'] as const;

export function readArticleFixture(name: (typeof ARTICLE_FIXTURES)[number]): string {
  return readFileSync(join(repoRoot, 'tests/fixtures/articles', `${name}.html`), 'utf8');
}

export interface LocalServer {
  /** Origin, e.g. http://127.0.0.1:41234 */
  url: string;
  /** host:port, as SUMMARIZER_ALLOWED_HOSTS names it. */
  host: string;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * The saved article pages at /articles/<name>, and hostile answers: redirects into loopback and the
 * metadata address, endless redirects, a huge body, a slow drip, wrong content types, a 500.
 */
export async function startPageServer(): Promise<LocalServer> {
  const requests: string[] = [];
  const drips = new Set<NodeJS.Timeout>();
  const { server, port } = await listen((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const article = path.match(/^\/articles\/([a-z-]+)$/)?.[1];
    if (article && (ARTICLE_FIXTURES as readonly string[]).includes(article)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(readArticleFixture(article as (typeof ARTICLE_FIXTURES)[number]));
      return;
    }
    switch (path) {
      case '/moved':
        res.writeHead(301, { location: '/articles/lighthouse-keepers' }).end();
        return;
      case '/redirect-loopback':
        res.writeHead(302, { location: 'http://127.0.0.1/admin' }).end();
        return;
      case '/redirect-other-port':
        // Same address, a port the allow-list does not name.
        res.writeHead(302, { location: `http://127.0.0.1:${port + 1}/` }).end();
        return;
      case '/redirect-chain':
        res.writeHead(301, { location: '/redirect-chain-2' }).end();
        return;
      case '/redirect-chain-2':
        res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' }).end();
        return;
      case '/redirect-mapped':
        res.writeHead(302, { location: 'http://[::ffff:127.0.0.1]/' }).end();
        return;
      case '/redirect-localhost':
        res.writeHead(302, { location: 'http://localhost/' }).end();
        return;
      case '/loop':
        res.writeHead(302, { location: '/loop' }).end();
        return;
      case '/huge': {
        // 3 MB of paragraphs without a Content-Length: the reader must stop on its own.
        res.writeHead(200, { 'content-type': 'text/html' });
        const paragraph = `<p>${'All work and no play makes a very long page. '.repeat(20)}</p>\n`;
        res.write('<html><body><article>');
        for (let sent = 0; sent < 3 * 1024 * 1024; sent += paragraph.length) res.write(paragraph);
        res.end('</article></body></html>');
        return;
      }
      case '/huge-declared':
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50 * 1024 * 1024) });
        res.write('<html><body>');
        // Never sends the rest: the declared length alone is refused.
        return;
      case '/drip': {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><body><p>');
        const timer = setInterval(() => res.write('.'), 200);
        drips.add(timer);
        res.on('close', () => {
          clearInterval(timer);
          drips.delete(timer);
        });
        return;
      }
      case '/stall':
        // Headers never come.
        return;
      case '/data.json':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"title":"not a page"}');
        return;
      case '/report.pdf':
        res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7\n');
        return;
      case '/broken':
        res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>');
        return;
      case '/empty':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Nothing</title></head><body></body></html>');
        return;
      default:
        res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    }
  });
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () => {
      for (const timer of drips) clearInterval(timer);
      return closeServer(server);
    },
  };
}

export interface FakeVideo {
  title: string;
  author: string;
  lengthSeconds: number;
  /** Caption lines [start seconds, duration, text]; absent = the video has no captions. */
  captions?: [number, number, string][];
  /** YouTube's playability: anything but OK means the video cannot be watched. */
  status?: 'OK' | 'ERROR' | 'LOGIN_REQUIRED';
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');
}

/** The player response of the innertube API (shape recorded from youtube.com, trimmed to what is read). */
function playerResponse(videoId: string, video: FakeVideo | undefined): unknown {
  if (!video || video.status === 'ERROR') {
    return { responseContext: {}, playabilityStatus: { status: 'ERROR', reason: 'This video is unavailable' } };
  }
  return {
    responseContext: { visitorData: 'CgtEeXBxQ0RrZ2dWQSi', maxAgeSeconds: 0 },
    playabilityStatus: { status: video.status ?? 'OK', playableInEmbed: true },
    videoDetails: {
      videoId,
      title: video.title,
      lengthSeconds: String(video.lengthSeconds),
      channelId: 'UCfakeChannel000000000000',
      isOwnerViewing: false,
      shortDescription: `${video.title}.`,
      isCrawlable: true,
      viewCount: '123456',
      author: video.author,
      isPrivate: false,
      isLiveContent: false,
    },
    ...(video.captions
      ? {
          captions: {
            playerCaptionsTracklistRenderer: {
              captionTracks: [
                {
                  baseUrl: `https://www.youtube.com/api/timedtext?v=${videoId}&caps=asr&xorp=true&hl=en&lang=en&fmt=srv1`,
                  name: { runs: [{ text: 'English' }] },
                  vssId: '.en',
                  languageCode: 'en',
                  isTranslatable: true,
                },
              ],
              audioTracks: [{ captionTrackIndices: [0] }],
              defaultAudioTrackIndex: 0,
            },
          },
        }
      : {}),
  };
}

/**
 * A YouTube stand-in for YOUTUBE_BASE_URL: the innertube player API (POST /youtubei/v1/player),
 * the watch page youtube-transcript falls back to, and caption tracks in the classic timedtext XML.
 */
export async function startFakeYouTube(videos: Record<string, FakeVideo>): Promise<LocalServer> {
  const requests: string[] = [];
  const { server, port } = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://youtube.test');
    requests.push(`${req.method} ${url.pathname}`);
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      if (req.method === 'POST' && url.pathname === '/youtubei/v1/player') {
        const { videoId } = JSON.parse(raw || '{}') as { videoId?: string };
        res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(playerResponse(videoId ?? '', videos[videoId ?? ''])));
        return;
      }
      if (url.pathname === '/watch') {
        const videoId = url.searchParams.get('v') ?? '';
        const player = JSON.stringify(playerResponse(videoId, videos[videoId]));
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!DOCTYPE html><html><head><title>YouTube</title></head><body><script nonce="x">var ytInitialPlayerResponse = ${player};var meta = document.createElement('meta');</script></body></html>`);
        return;
      }
      if (url.pathname === '/api/timedtext') {
        const video = videos[url.searchParams.get('v') ?? ''];
        if (!video?.captions) {
          res.writeHead(404).end();
          return;
        }
        const lines = video.captions.map(([start, dur, text]) => `<text start="${start}" dur="${dur}">${xmlEscape(text)}</text>`);
        res.writeHead(200, { 'content-type': 'text/xml; charset=UTF-8' });
        res.end(`<?xml version="1.0" encoding="utf-8" ?><transcript>${lines.join('')}</transcript>`);
        return;
      }
      res.writeHead(404).end();
    });
  });
  return { url: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, requests, close: () => closeServer(server) };
}
