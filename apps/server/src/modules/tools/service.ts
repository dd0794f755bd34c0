import {
  SUMMARIZER_DAILY_LIMIT,
  isPremiumActive,
  type summarizeInputSchema,
  type SummarizeResult,
  type SummarizeStreamEvent,
  type SummarizerMode,
  type SummarySource,
  type YouTubeInfo,
} from '@mbox/shared';
import type { z } from 'zod';
import { sanitizeSummaryHtml, type ModelTier } from '../../ai/index.js';
import { AppError } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';
import { streamJob } from '../../stream-job.js';
import { dailyLimit, dailySubject, takeDailyUseOrThrow } from '../../trpc/rate-limit.js';
import { SUMMARIZER_KIND, estimateTokens, meterGeneration, serverEngine, type GenerationMeter } from '../ai-usage/service.js';
import type { AuthUser } from '../auth/service.js';
import { callAi } from '../summary/ai-errors.js';
import { prepareSource, TYPICAL_SOURCE_CHARS, withoutSpeakerLabels, youTubeOptions } from './sources.js';
import { fetchVideoInfo, invalidYouTubeLink, youTubeVideoId } from './youtube.js';

export type SummarizeRequest = z.output<typeof summarizeInputSchema>;

/** Who calls: a signed-in user (counted per account) or a visitor (counted per client address). */
export interface Caller {
  user: AuthUser | null;
  ip: string;
}

/**
 * 10 a day for visitors, per client address; signed-in accounts are metered per account by the AI
 * meter instead (docs/ai.md, "Daily limits"), so this is null (no limit here) for them.
 */
function visitorSummarizerLimit(user: AuthUser | null): number | null {
  return user ? null : SUMMARIZER_DAILY_LIMIT;
}

/** Counts one summary per visitor's call; failed calls give it back. Over the limit: 429 'Daily limit reached'. */
export const visitorSummarizerQuota = dailyLimit(SUMMARIZER_KIND, visitorSummarizerLimit);

function tierOf(user: AuthUser | null): ModelTier {
  return user && isPremiumActive(user) ? 'advanced' : 'basic';
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** 75 → "1:15", 3725 → "1:02:05". */
export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** The metadata line under a summary (product.md, Data: HTML): title, site and word count; for a video its length. */
export function metadataHtml(source: SummarySource, summarisedWords: number): string {
  const rows: [string, string][] = [];
  if (source.kind !== 'text') {
    const title = source.url ? `<a href="${escapeHtml(source.url)}">${escapeHtml(source.title)}</a>` : escapeHtml(source.title);
    rows.push(['Title', title]);
    rows.push([source.kind === 'youtube' ? 'Channel' : 'Site', escapeHtml(source.site)]);
  }
  if (source.durationSeconds !== null) rows.push(['Length', formatDuration(source.durationSeconds)]);
  rows.push(['Words', source.words.toLocaleString('en-US')]);
  if (summarisedWords < source.words) rows.push(['Summarised', `the first ${summarisedWords.toLocaleString('en-US')} words`]);
  return sanitizeSummaryHtml(rows.map(([label, value]) => `<p><b>${label}:</b> ${value}</p>`).join(''));
}

export interface SummarizeOptions {
  onSource?: (source: SummarySource) => void;
  /** The summary's raw text as it is written (the offline engine's answer block by block). */
  onToken?: (text: string) => void;
  signal?: AbortSignal;
}

/**
 * POST /v1/utils/{summary,youtube} and /v1/public/utils/{summary,youtube}: reads the source and
 * summarises it. A signed-in caller's summary is one metered generation of the summarizer counter,
 * taken before the source is read; a visitor's is counted by visitorSummarizerQuota.
 */
export async function summarize(
  deps: AppDeps,
  caller: Caller,
  mode: SummarizerMode,
  request: SummarizeRequest,
  options: SummarizeOptions = {},
): Promise<{ result: SummarizeResult }> {
  if (!caller.user) return readAndSummarize(deps, caller, mode, request, options);
  // Taken before the source is read, so a refused call fetches nothing: a page's or video's length is
  // not known yet and is assumed typical until the LLM reports its usage.
  const chars = request.text?.length ?? TYPICAL_SOURCE_CHARS;
  const metered = { engine: serverEngine(deps), estimatedTokens: estimateTokens(chars), counter: 'summarizer' as const };
  return meterGeneration(deps, caller.user, metered, (meter) => readAndSummarize(deps, caller, mode, request, options, meter));
}

async function readAndSummarize(
  deps: AppDeps,
  caller: Caller,
  mode: SummarizerMode,
  request: SummarizeRequest,
  options: SummarizeOptions,
  meter?: GenerationMeter,
): Promise<{ result: SummarizeResult }> {
  const prepared = await prepareSource(deps, mode, request, options.signal);
  options.onSource?.(prepared.source);
  const generated = await callAi(deps, () =>
    deps.ai.generateSummary({
      transcript: prepared.turns,
      promptKey: request.params.summaryKey,
      material: 'document',
      tier: tierOf(caller.user),
      onToken: options.onToken,
      signal: options.signal,
    }),
  );
  meter?.addUsage(generated.usage);
  return {
    result: {
      summary: withoutSpeakerLabels(generated.html, prepared.source.kind),
      metadata: metadataHtml(prepared.source, prepared.summarisedWords),
      source: prepared.source,
    },
  };
}

/** GET /v1/utils/youtube?link=: the video's title, length and whether it has captions. */
export async function youTubeInfo(deps: AppDeps, link: string): Promise<YouTubeInfo> {
  const videoId = youTubeVideoId(link);
  if (!videoId) throw invalidYouTubeLink();
  return fetchVideoInfo(videoId, youTubeOptions(deps));
}

function streamErrorMessage(deps: AppDeps, error: unknown): string {
  if (error instanceof AppError && error.code !== 'INTERNAL_SERVER_ERROR') return error.message;
  deps.log.error({ err: error }, 'summarizer stream failed');
  return 'Internal server error';
}

/**
 * tools.summarizeStream: `source` once the text is read, `token`s as the summary is written, then
 * `done` with what the POST call answers, or one `error` event (daily limit included). Counted like
 * a POST call; a stream that fails or is abandoned before its summary is written gives its use back.
 */
export async function* streamSummarize(
  deps: AppDeps,
  caller: Caller,
  mode: SummarizerMode,
  request: SummarizeRequest,
  signal: AbortSignal | undefined,
): AsyncGenerator<SummarizeStreamEvent> {
  let giveBack: (() => Promise<void>) | undefined;
  try {
    if (!caller.user) giveBack = await takeDailyUseOrThrow(deps.db, dailySubject(caller), SUMMARIZER_KIND, visitorSummarizerLimit(null));
  } catch (error) {
    yield { type: 'error', error: streamErrorMessage(deps, error) };
    return;
  }
  const offline = !deps.ai.isLlmConfigured;
  let kind: SummarySource['kind'] = 'text';
  try {
    const { result } = yield* streamJob<SummarizeStreamEvent, { result: SummarizeResult }>(
      (emit, jobSignal) =>
        summarize(deps, caller, mode, request, {
          signal: jobSignal,
          onSource: (source) => {
            kind = source.kind;
            emit({ type: 'source', source });
          },
          onToken: (text) => emit({ type: 'token', text: offline ? withoutSpeakerLabels(text, kind) : text }),
        }),
      { signals: [deps.shutdown, signal], onUndelivered: giveBack },
    );
    yield { type: 'done', result };
  } catch (error) {
    yield { type: 'error', error: streamErrorMessage(deps, error) };
  }
}
