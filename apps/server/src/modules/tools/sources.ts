import {
  INVALID_LINK,
  SUMMARIZER_MAX_TEXT_CHARS,
  SUMMARIZER_MIN_TEXT_CHARS,
  checkLink,
  isYouTubeLink,
  type SummarizerMode,
  type SummarySource,
} from '@mbox/shared';
import type { TranscriptTurn } from '../../ai/index.js';
import { AppError } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';
import { countWords, extractArticle } from './extract.js';
import { fetchPage } from './fetch-page.js';
import type { SummarizeRequest } from './service.js';
import { fetchCaptions, fetchVideoInfo, invalidYouTubeLink, youTubeVideoId, type YouTubeClientOptions } from './youtube.js';

/*
 * What the summarizers summarise: a pasted text, a web page's article or a video's captions, read and
 * cut to the text limit, as the speaker turns the engine reads.
 */

export const NO_READABLE_TEXT = 'No readable text was found on the page';
export const TOO_LITTLE_TEXT = `There is too little text to summarise: at least ${SUMMARIZER_MIN_TEXT_CHARS} characters are needed`;
export const YOUTUBE_NEEDS_LINK = 'link: a YouTube summary needs a YouTube link, not text';

/** Keeps whole paragraphs up to the text limit, so a long page or video is summarised from its start. */
function fitToLimit(paragraphs: string[]): string[] {
  const kept: string[] = [];
  let size = 0;
  for (const paragraph of paragraphs) {
    if (size + paragraph.length > SUMMARIZER_MAX_TEXT_CHARS) {
      if (kept.length === 0) kept.push(paragraph.slice(0, SUMMARIZER_MAX_TEXT_CHARS));
      break;
    }
    kept.push(paragraph);
    size += paragraph.length + 1;
  }
  return kept;
}

export interface PreparedSource {
  source: SummarySource;
  /** What the engine reads: the text's paragraphs as turns of one speaker. */
  turns: TranscriptTurn[];
  summarisedWords: number;
}

/**
 * The engine summarises speaker turns; an article, a pasted text or a caption track is one speaker
 * whose paragraphs are the turns. The name reads well where the engine writes it ("The article
 * discussed …").
 */
export const SPEAKER = { text: 'The text', link: 'The article', youtube: 'The video' } as const;

/** With one speaker, the name before every list item says nothing. */
export function withoutSpeakerLabels(html: string, kind: SummarySource['kind']): string {
  return html.split(`<b>${SPEAKER[kind]}:</b> `).join('');
}

function asTurns(speaker: string, paragraphs: string[]): { turns: TranscriptTurn[]; words: number } {
  const kept = fitToLimit(paragraphs);
  return { turns: kept.map((text) => ({ speaker, text })), words: countWords(kept.join(' ')) };
}

export function youTubeOptions(deps: AppDeps, signal?: AbortSignal): YouTubeClientOptions {
  return { baseUrl: deps.config.YOUTUBE_BASE_URL, timeoutMs: deps.config.SUMMARIZER_FETCH_TIMEOUT_MS, signal };
}

/** Caption lines joined into paragraphs of about 60 words, so sentences are not cut at every caption. */
function captionParagraphs(lines: { text: string }[]): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  let words = 0;
  for (const line of lines) {
    const text = line.text.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    current.push(text);
    words += countWords(text);
    if (words >= 60 && /[.!?…]["')\]]?$/.test(text) || words >= 120) {
      paragraphs.push(current.join(' '));
      current = [];
      words = 0;
    }
  }
  if (current.length) paragraphs.push(current.join(' '));
  return paragraphs;
}

async function prepareYouTube(deps: AppDeps, videoId: string, signal?: AbortSignal): Promise<PreparedSource> {
  const options = youTubeOptions(deps, signal);
  const info = await fetchVideoInfo(videoId, options);
  const captions = await fetchCaptions(videoId, options);
  const paragraphs = captionParagraphs(captions);
  const allWords = countWords(paragraphs.join(' '));
  if (allWords === 0) throw new AppError('UNPROCESSABLE_CONTENT', 'The captions of this video are empty');
  const { turns, words } = asTurns(SPEAKER.youtube, paragraphs);
  return {
    source: {
      kind: 'youtube',
      title: info.title,
      site: info.author || 'YouTube',
      url: info.url,
      words: allWords,
      durationSeconds: info.durationSeconds,
    },
    turns,
    summarisedWords: words,
  };
}

async function prepareLink(deps: AppDeps, link: string, signal?: AbortSignal): Promise<PreparedSource> {
  const page = await fetchPage(link, {
    allowedHosts: deps.config.SUMMARIZER_ALLOWED_HOSTS,
    timeoutMs: deps.config.SUMMARIZER_FETCH_TIMEOUT_MS,
    maxBytes: deps.config.SUMMARIZER_MAX_PAGE_BYTES,
    signal,
  });
  const article = await extractArticle(page.html, page.url);
  if (!article) throw new AppError('UNPROCESSABLE_CONTENT', NO_READABLE_TEXT);
  const allWords = countWords(article.paragraphs.join(' '));
  if (article.paragraphs.join(' ').length < SUMMARIZER_MIN_TEXT_CHARS) {
    throw new AppError('UNPROCESSABLE_CONTENT', `${TOO_LITTLE_TEXT}; the page has ${allWords} words`);
  }
  const { turns, words } = asTurns(SPEAKER.link, article.paragraphs);
  return {
    source: { kind: 'link', title: article.title, site: article.site, url: page.url, words: allWords, durationSeconds: null },
    turns,
    summarisedWords: words,
  };
}

function prepareText(text: string): PreparedSource {
  const paragraphs = text.split(/\n+/).map((p) => p.trim()).filter(Boolean);
  const { turns, words } = asTurns(SPEAKER.text, paragraphs);
  return {
    source: { kind: 'text', title: '', site: '', url: '', words, durationSeconds: null },
    turns,
    summarisedWords: words,
  };
}

/** Characters of a typical article or caption track (about 2,000 words). */
export const TYPICAL_SOURCE_CHARS = 12_000;

/** What is summarised, read from the text, the web page or the video's captions. */
export async function prepareSource(deps: AppDeps, mode: SummarizerMode, request: SummarizeRequest, signal?: AbortSignal): Promise<PreparedSource> {
  if (request.link === undefined) {
    if (mode === 'youtube') throw new AppError('BAD_REQUEST', YOUTUBE_NEEDS_LINK);
    return prepareText(request.text ?? '');
  }
  if (mode === 'youtube') {
    const videoId = youTubeVideoId(request.link);
    if (!videoId) throw invalidYouTubeLink();
    return prepareYouTube(deps, videoId, signal);
  }
  const checked = checkLink(request.link);
  if (!checked.valid) throw new AppError('BAD_REQUEST', INVALID_LINK);
  // A video link given to the page summarizer: its captions say more than the watch page's HTML.
  const videoId = isYouTubeLink(checked.url) ? youTubeVideoId(checked.url) : null;
  return videoId ? prepareYouTube(deps, videoId, signal) : prepareLink(deps, checked.url, signal);
}

