import {
  YoutubeTranscriptDisabledError,
  YoutubeTranscriptNotAvailableError,
  YoutubeTranscriptTooManyRequestError,
  YoutubeTranscriptVideoUnavailableError,
  fetchTranscript,
  type TranscriptResponse,
} from 'youtube-transcript';
import { INVALID_YOUTUBE_LINK, checkLink, type YouTubeInfo } from '@mbox/shared';
import { AppError } from '../../app-error.js';

export const NO_CAPTIONS = 'This video has no captions, so it cannot be summarised';
export const VIDEO_UNAVAILABLE = 'This YouTube video is not available';
export const YOUTUBE_UNREACHABLE = 'YouTube could not be reached, try again later';
export const YOUTUBE_TIMEOUT = 'YouTube took too long to answer, try again later';
export const YOUTUBE_BUSY = 'YouTube refuses requests from this server for now, try again later';

/** The address youtube-transcript and our player request are written against. */
const YOUTUBE_ORIGIN = 'https://www.youtube.com';
/** The innertube client youtube-transcript uses; the same one gives title and length. */
const INNERTUBE_CLIENT = { clientName: 'ANDROID', clientVersion: '20.10.38' };
const INNERTUBE_USER_AGENT = `com.google.android.youtube/${INNERTUBE_CLIENT.clientVersion} (Linux; U; Android 14)`;
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);

export interface YouTubeClientOptions {
  /** YOUTUBE_BASE_URL: replaces https://www.youtube.com in every request. */
  baseUrl: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * The video id of a YouTube link: youtube.com/watch?v=ID, youtu.be/ID, /shorts/ID or /embed/ID
 * (https:// assumed as in the link rule). Null for anything else.
 */
export function youTubeVideoId(link: string): string | null {
  const checked = checkLink(link, { youtubeOnly: true });
  if (!checked.valid) return null;
  const url = new URL(checked.url);
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split('/').filter(Boolean);
  let id: string | null | undefined;
  if (host === 'youtu.be' || host === 'www.youtu.be') id = segments[0];
  else if (YOUTUBE_HOSTS.has(host)) {
    if (url.pathname === '/watch') id = url.searchParams.get('v');
    else if (segments.length >= 2 && (segments[0] === 'shorts' || segments[0] === 'embed')) id = segments[1];
  }
  return id && VIDEO_ID.test(id) ? id : null;
}

/** youtube-transcript's fetch, sent to YOUTUBE_BASE_URL instead, under the call's deadline. Nothing else is fetched. */
function youTubeFetch(options: YouTubeClientOptions): typeof fetch {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(`${YOUTUBE_ORIGIN}/`)) return Promise.reject(new Error(`Refused to fetch ${url}: not YouTube`));
    return fetch(base + url.slice(YOUTUBE_ORIGIN.length), { ...init, signal });
  };
}

function upstreamError(error: unknown, signal: AbortSignal | undefined): AppError {
  if (error instanceof AppError) return error;
  const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError') && !signal?.aborted;
  return timedOut
    ? new AppError('GATEWAY_TIMEOUT', YOUTUBE_TIMEOUT, { cause: error })
    : new AppError('BAD_GATEWAY', YOUTUBE_UNREACHABLE, { cause: error });
}

interface PlayerResponse {
  playabilityStatus?: { status?: string };
  videoDetails?: { videoId?: string; title?: string; author?: string; lengthSeconds?: string; isLive?: boolean };
  captions?: { playerCaptionsTracklistRenderer?: { captionTracks?: unknown[] } };
}

/** Title, channel, length and whether captions exist, from YouTube's player API (what the watch page loads). */
export async function fetchVideoInfo(videoId: string, options: YouTubeClientOptions): Promise<YouTubeInfo> {
  const request = youTubeFetch(options);
  let player: PlayerResponse;
  try {
    const response = await request(`${YOUTUBE_ORIGIN}/youtubei/v1/player?prettyPrint=false`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': INNERTUBE_USER_AGENT },
      body: JSON.stringify({ context: { client: INNERTUBE_CLIENT }, videoId }),
    });
    if (response.status === 429) throw new AppError('SERVICE_UNAVAILABLE', YOUTUBE_BUSY);
    if (!response.ok) throw new AppError('BAD_GATEWAY', `${YOUTUBE_UNREACHABLE} (HTTP ${response.status})`);
    player = (await response.json()) as PlayerResponse;
  } catch (error) {
    throw upstreamError(error, options.signal);
  }
  const details = player.videoDetails;
  if (player.playabilityStatus?.status !== 'OK' || !details?.title) {
    throw new AppError('NOT_FOUND', VIDEO_UNAVAILABLE);
  }
  const length = Number(details.lengthSeconds);
  const tracks = player.captions?.playerCaptionsTracklistRenderer?.captionTracks;
  return {
    videoId,
    url: `https://www.youtube.com/watch?v=${videoId}`,
    title: details.title,
    author: details.author ?? '',
    durationSeconds: Number.isInteger(length) && length > 0 ? length : null,
    hasCaptions: Array.isArray(tracks) && tracks.length > 0,
  };
}

/** The video's captions (the first track YouTube lists) through youtube-transcript, as plain lines. */
export async function fetchCaptions(videoId: string, options: YouTubeClientOptions): Promise<TranscriptResponse[]> {
  try {
    return await fetchTranscript(videoId, { fetch: youTubeFetch(options) });
  } catch (error) {
    if (error instanceof YoutubeTranscriptDisabledError || error instanceof YoutubeTranscriptNotAvailableError) {
      throw new AppError('UNPROCESSABLE_CONTENT', NO_CAPTIONS, { cause: error });
    }
    if (error instanceof YoutubeTranscriptVideoUnavailableError) {
      throw new AppError('NOT_FOUND', VIDEO_UNAVAILABLE, { cause: error });
    }
    if (error instanceof YoutubeTranscriptTooManyRequestError) {
      throw new AppError('SERVICE_UNAVAILABLE', YOUTUBE_BUSY, { cause: error });
    }
    throw upstreamError(error, options.signal);
  }
}

/** The 400 of a link that is not a YouTube video link. */
export function invalidYouTubeLink(): AppError {
  return new AppError('BAD_REQUEST', INVALID_YOUTUBE_LINK);
}
