import {
  OFFLINE_MODEL_NAME,
  promptTitle,
  type AiEngineKind,
  summarySettingsSchema,
  type PromptKey,
  type SummarySettings,
  type SummarySettingsInput,
} from '@mbox/shared';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { groupWithinBudget, splitLinesIntoChunks } from './chunking.js';
import { mapWithConcurrency } from './concurrency.js';
import { citeLlmAnswer, protectMarks } from './citations.js';
import { AiInputError, LlmNotConfiguredError, LlmRequestError } from './errors.js';
import { fixLineOffline } from './offline/fix-line.js';
import { defaultOfflineThreads, inlineRunner, workerPoolRunner, type OfflineRunner } from './offline/pool.js';
import { LocalModelHost, type LocalModelHostOptions } from './local/host.js';
import { OpenAiProvider } from './openai-provider.js';
import {
  buildChunkMessages,
  buildCombineMessages,
  buildFixLineMessages,
  buildMergeNotesMessages,
  buildSummaryMessages,
  buildTranslateMessages,
  formatNumberedLine,
  formatTranscriptLine,
  type SourceMaterial,
} from './prompt-builder.js';
import { answerToSafeHtml, htmlBlocks, sanitizeSummaryHtml } from './sanitize.js';
import { countMessageTokens, countTokens } from './tokens.js';
import { citedTurnsOf, transcriptTurns, type CitedTurn, type TranscriptInput } from './transcript-pages.js';
import type { ChatMessage, LlmProvider, LlmResult, ModelTier, TokenUsage, TranscriptTurn } from './types.js';
import { cleanTurnText } from './offline/text.js';

export const OFFLINE_MODEL = OFFLINE_MODEL_NAME;

export interface GenerateSummaryInput {
  /** The turns, or their pages (a meeting read from the database: they move to the offline engine's worker). */
  transcript: TranscriptInput;
  promptKey: PromptKey;
  /** The question, for promptKey 'custom'. */
  customPrompt?: string;
  /** Missing fields take the server defaults (standard, min 200, max 0, no translation). */
  settings?: SummarySettingsInput;
  tier: ModelTier;
  /** What the turns are: a meeting transcript (default) or a document read as one speaker's paragraphs. */
  material?: SourceMaterial;
  /** Regenerate's variant (0 = first generation): the offline engine picks another selection for each. */
  variant?: number;
  /** The meeting owner's time zone: the offline engine resolves due dates ("by Friday") and topic times in it. */
  timeZone?: string;
  /** Receives the answer's raw text as it is produced (the offline answer block by block). */
  onToken?: (delta: string) => void;
  signal?: AbortSignal;
}

export interface GeneratedSummary {
  title: string;
  /** Sanitised HTML, ready to store. */
  html: string;
  model: string;
  usage: TokenUsage;
  /** Parts the transcript was split into (1 when it fit the context). */
  chunks: number;
  /** Transcript indices of the lines `html` cites: citation n is `citedLines[n - 1]`; empty when it cites none. */
  citedLines: number[];
  /** The line `citedLines[i]` (null when out of range): what a citation opens. */
  citedTurns: (CitedTurn | null)[];
}

export interface TranslateInput {
  html: string;
  languageCode: string;
  tier: ModelTier;
  signal?: AbortSignal;
}

export interface FixLineInput {
  text: string;
  tier: ModelTier;
  signal?: AbortSignal;
}

export interface AiEngineOptions {
  /** The OpenAI-compatible LLM; absent = the local model answers if one is installed, else the offline engine. */
  provider?: LlmProvider;
  /** The built-in local model (used only without `provider`). */
  local?: LocalModelHost;
  /** Context window assumed for the model, in tokens (LLM_CONTEXT_TOKENS). */
  contextTokens: number;
  /** Chunk requests running at once for long meetings (LLM_CONCURRENCY). */
  concurrency: number;
  /** Where offline summaries run (default: in the calling thread; the server uses worker threads). */
  offline?: OfflineRunner;
}

const ZERO_USAGE: TokenUsage = { promptTokens: 0, completionTokens: 0 };

function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens };
}

/**
 * The AI engine: summaries of every prompt type, custom questions, translations and line fixes,
 * through an OpenAI-compatible LLM when configured and the offline engine otherwise.
 */
export class AiEngine {
  private readonly provider: LlmProvider | undefined;
  readonly local: LocalModelHost | undefined;
  private readonly contextTokens: number;
  private readonly concurrency: number;
  private readonly offline: OfflineRunner;

  constructor(options: AiEngineOptions) {
    this.provider = options.provider;
    this.local = options.provider ? undefined : options.local;
    this.contextTokens = options.contextTokens;
    this.concurrency = Math.max(1, options.concurrency);
    this.offline = options.offline ?? inlineRunner;
  }

  /** The engine of the configuration; a local model, when one is installed, starts loading at once. */
  static fromConfig(config: Config, log?: LocalModelHostOptions['log']): AiEngine {
    const configured = Boolean(config.OPENAI_API_KEY || config.OPENAI_BASE_URL);
    return new AiEngine({
      provider: configured
        ? new OpenAiProvider({
            apiKey: config.OPENAI_API_KEY,
            baseURL: config.OPENAI_BASE_URL,
            models: { basic: config.OPENAI_MODEL_BASIC, advanced: config.OPENAI_MODEL_ADVANCED },
            timeoutMs: config.LLM_TIMEOUT_MS,
            maxRetries: config.LLM_MAX_RETRIES,
          })
        : undefined,
      local: configured ? undefined : localModelHost(config, log),
      contextTokens: config.LLM_CONTEXT_TOKENS,
      concurrency: config.LLM_CONCURRENCY,
      offline: configured ? undefined : workerPoolRunner(config.OFFLINE_AI_THREADS ?? defaultOfflineThreads()),
    });
  }

  /** Stops the offline engine's worker threads and frees the local model. */
  async close(): Promise<void> {
    await Promise.all([this.offline.close(), this.local?.close()]);
  }

  /** The server has an LLM (an OpenAI-compatible server or an installed local model): translation works. */
  get isLlmConfigured(): boolean {
    return this.provider !== undefined || this.local?.installed === true;
  }

  /** The engine that answers now, in the order OpenAI-compatible server, local model, offline engine. */
  get engine(): AiEngineKind {
    return this.provider ? 'openai' : this.local?.installed ? 'local' : 'offline';
  }

  /**
   * Runs `work` (reading a whole meeting, then summarising it) in its turn: with the offline engine at most
   * one per worker thread at once, so summaries that would queue for a thread do not read their meetings
   * into memory and load the database all at the same moment; with an LLM at once (its requests have their
   * own limit, LLM_CONCURRENCY).
   */
  wholeMeetingTurn<T>(work: () => Promise<T>): Promise<T> {
    return this.engine === 'offline' ? this.offline.turn(work) : work();
  }

  /** The LLM to answer with: the configured server, else the local model (waiting while it loads). */
  private async llm(): Promise<LlmProvider | undefined> {
    return this.provider ?? (await this.local?.current());
  }

  /**
   * Tokens a request and its answer may take: the local model's own context (a margin kept, as prompts
   * are counted with another tokenizer than the model's), else LLM_CONTEXT_TOKENS.
   */
  private contextFor(modelContextTokens: number | undefined): number {
    return modelContextTokens ? Math.floor(modelContextTokens * 0.85) : this.contextTokens;
  }

  /** Tokens kept free for the answer in every request. */
  private outputTokensFor(contextTokens: number): number {
    return Math.max(256, Math.min(4096, Math.round(contextTokens * 0.25)));
  }

  async generateSummary(input: GenerateSummaryInput): Promise<GeneratedSummary> {
    const settings = parseSettings(input.settings);
    const customPrompt = input.customPrompt?.trim();
    if (input.promptKey === 'custom' && (!customPrompt || customPrompt.length < 6)) {
      throw new AiInputError('customPrompt', 'A custom prompt needs a question of at least 6 characters.');
    }
    const title = promptTitle(input.promptKey, customPrompt);
    const provider = await this.llm();
    if (!provider) {
      const { transcript, promptKey, material, variant, timeZone } = input;
      // Sanitised where it is written (a worker thread in the server).
      const { html, lines, cited } = await this.offline.run({ transcript, promptKey, settings, customPrompt, material, variant, timeZone }, input.signal);
      // Written at once, handed over block by block (paragraph, list item, heading) so streams show it grow.
      for (const block of htmlBlocks(html)) input.onToken?.(block);
      return { title, html, model: OFFLINE_MODEL, usage: ZERO_USAGE, chunks: 1, citedLines: lines, citedTurns: cited };
    }
    const transcript = transcriptTurns(input.transcript);
    const result = await this.generateWithLlm(provider, { ...input, transcript, customPrompt }, settings);
    const answer = answerToSafeHtml(result.text);
    if (!answer) throw new LlmRequestError('The LLM returned an empty answer.', undefined, 'empty', 1);
    const { html, lines } = await citeLlmAnswer(
      answer,
      result.sent && {
        transcript: transcript.map((t) => ({ speaker: t.speaker, text: cleanTurnText(t.text) })),
        sent: result.sent,
      },
    );
    return { title, html, model: result.model, usage: result.usage, chunks: result.chunks, citedLines: lines, citedTurns: citedTurnsOf(transcript, lines) };
  }

  private async generateWithLlm(
    provider: LlmProvider,
    input: GenerateSummaryInput & { transcript: readonly TranscriptTurn[] },
    settings: SummarySettings,
  ): Promise<LlmResult & { chunks: number; sent?: number[] }> {
    // Meeting lines are numbered for the answer to cite (`sent[p - 1]` is line p's transcript index).
    const sent = input.transcript.flatMap((t, i) => (cleanTurnText(t.text).length > 0 ? [i] : []));
    const cites = (input.material ?? 'meeting') === 'meeting';
    const lines = sent.map((i, k) => (cites ? formatNumberedLine(input.transcript[i]!, k + 1) : formatTranscriptLine(input.transcript[i]!)));
    const cited = cites ? { sent } : {};
    const transcriptText = lines.join('\n');
    const common = { promptKey: input.promptKey, settings, customPrompt: input.customPrompt, material: input.material };
    const contextTokens = this.contextFor(provider.contextTokens);
    const outputTokens = this.outputTokensFor(contextTokens);
    const inputBudget = contextTokens - outputTokens;
    const direct = buildSummaryMessages({ ...common, transcriptText });
    if (countMessageTokens(direct) <= inputBudget) {
      return { ...(await this.call(provider, direct, input, outputTokens, input.onToken)), chunks: 1, ...cited };
    }

    // Map: notes of each part, sized so that all notes together fit the combine request.
    const noteCeiling = 400;
    const chunkOutput = Math.min(outputTokens, noteCeiling * 2);
    const overhead = countMessageTokens(
      buildChunkMessages({ ...common, chunkText: '', part: 999, parts: 999, noteWords: noteCeiling }),
    );
    const chunkBudget = contextTokens - chunkOutput - overhead;
    if (chunkBudget < 64) throw new AiInputError('LLM_CONTEXT_TOKENS', 'LLM_CONTEXT_TOKENS is too small to split the transcript.');
    const chunks = splitLinesIntoChunks(lines, chunkBudget, countTokens);
    const combineOverhead = countMessageTokens(buildCombineMessages({ ...common, notes: [] }));
    const noteWords = Math.max(60, Math.min(noteCeiling, Math.floor(((inputBudget - combineOverhead) * 0.6) / chunks.length)));
    let usage = ZERO_USAGE;
    let notes = await mapWithConcurrency(chunks, this.concurrency, async (chunkText, i) => {
      const messages = buildChunkMessages({ ...common, chunkText, part: i + 1, parts: chunks.length, noteWords });
      const r = await this.call(provider, messages, input, Math.min(chunkOutput, noteWords * 2));
      usage = addUsage(usage, r.usage);
      return r.text;
    });

    // Reduce: when the notes still do not fit, merge neighbouring notes until they do.
    for (let round = 0; round < 4 && notes.length > 1; round++) {
      if (countMessageTokens(buildCombineMessages({ ...common, notes })) <= inputBudget) break;
      const mergeOverhead = countMessageTokens(buildMergeNotesMessages([], noteCeiling));
      const groups = groupWithinBudget(notes, contextTokens - chunkOutput - mergeOverhead, countTokens);
      if (groups.length === notes.length) break; // every note alone fills a request: nothing to merge
      notes = await mapWithConcurrency(groups, this.concurrency, async (group) => {
        const r = await this.call(provider, buildMergeNotesMessages(group, noteWords), input, Math.min(chunkOutput, noteWords * 2));
        usage = addUsage(usage, r.usage);
        return r.text;
      });
    }
    const final = await this.call(provider, buildCombineMessages({ ...common, notes }), input, outputTokens, input.onToken);
    return { ...final, usage: addUsage(usage, final.usage), chunks: chunks.length, ...cited };
  }

  private call(
    provider: LlmProvider,
    messages: ChatMessage[],
    input: { tier: ModelTier; signal?: AbortSignal },
    maxTokens: number,
    onToken?: (delta: string) => void,
  ): Promise<LlmResult> {
    const request = { messages, tier: input.tier, maxTokens, temperature: 0.2, signal: input.signal };
    return onToken ? provider.stream(request, onToken) : provider.generate(request);
  }

  /** Tokens a request may carry with room left for its answer (the context minus the answer's reserve). */
  get inputTokenBudget(): number {
    const contextTokens = this.contextFor(this.provider?.contextTokens ?? this.local?.contextTokens);
    return contextTokens - this.outputTokensFor(contextTokens);
  }

  /**
   * One streamed chat request built by the caller (questions about a meeting retrieve their own
   * lines and number them); needs an LLM. The answer is at most `maxTokens`, within the reserve.
   */
  async streamChat(
    messages: ChatMessage[],
    input: { tier: ModelTier; maxTokens: number; signal?: AbortSignal },
    onToken: (delta: string) => void,
  ): Promise<LlmResult> {
    const provider = await this.llm();
    if (!provider) throw new LlmNotConfiguredError('Chat');
    const outputTokens = this.outputTokensFor(this.contextFor(provider.contextTokens));
    return this.call(provider, messages, input, Math.min(outputTokens, input.maxTokens), onToken);
  }

  /** Translates summary HTML; needs an LLM. */
  async translate(input: TranslateInput): Promise<{ html: string; model: string; usage: TokenUsage }> {
    const provider = await this.llm();
    if (!provider) throw new LlmNotConfiguredError('Translation');
    const contextTokens = this.contextFor(provider.contextTokens);
    // Citation and unsupported marks travel as placeholders, so the translation keeps them.
    const { html, restore } = await protectMarks(sanitizeSummaryHtml(input.html));
    // A long summary is translated block by block so each request fits the context.
    const budget = Math.floor((contextTokens - countMessageTokens(buildTranslateMessages('', input.languageCode))) / 2);
    const blocks = splitHtmlBlocks(html);
    const parts = groupWithinBudget(blocks, budget, countTokens).map((g) => g.join(''));
    let usage = ZERO_USAGE;
    let model = provider.modelFor(input.tier);
    const translated = await mapWithConcurrency(parts, this.concurrency, async (part) => {
      const r = await provider.generate({
        messages: buildTranslateMessages(part, input.languageCode),
        tier: input.tier,
        maxTokens: Math.min(this.outputTokensFor(contextTokens) * 2, Math.max(256, countTokens(part) * 3)),
        temperature: 0,
        signal: input.signal,
      });
      usage = addUsage(usage, r.usage);
      model = r.model;
      return r.text;
    });
    const out = answerToSafeHtml(translated.join(''));
    if (!out) throw new LlmRequestError('The LLM returned an empty translation.', undefined, 'empty', 1);
    return { html: restore(out), model, usage };
  }

  /** Cleans one caption line (fillers, stutters, capitals, punctuation); plain text in and out. */
  async fixLine(input: FixLineInput): Promise<{ text: string; usage: TokenUsage }> {
    const rule = fixLineOffline(input.text);
    const provider = rule ? await this.llm() : undefined;
    if (!provider) return { text: rule, usage: ZERO_USAGE };
    const r = await provider.generate({
      messages: buildFixLineMessages(input.text),
      tier: input.tier,
      maxTokens: Math.max(64, countTokens(input.text) * 2),
      temperature: 0,
      signal: input.signal,
    });
    const cleaned = r.text
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^["“'](.*)["”']$/, '$1');
    return { text: cleaned || rule, usage: r.usage };
  }
}

/** The local model host of the configuration: LOCAL_MODEL pins a file, LOCAL_MODEL_DIR holds downloaded ones. */
function localModelHost(config: Config, log?: LocalModelHostOptions['log']): LocalModelHost {
  const host = new LocalModelHost({
    pinned: config.LOCAL_MODEL,
    dir: config.LOCAL_MODEL_DIR ?? join(config.DATA_DIR, 'models'),
    parallel: config.LOCAL_MODEL_PARALLEL,
    threads: config.LOCAL_MODEL_THREADS ?? Math.max(1, availableParallelism() - 1),
    gpu: config.LOCAL_MODEL_GPU,
    maxContextTokens: config.LOCAL_MODEL_CONTEXT_TOKENS,
    maxRamBytes: config.LOCAL_MODEL_MAX_RAM_MB * 1024 * 1024,
    log,
  });
  void host.start();
  return host;
}

export function parseSettings(settings: SummarySettingsInput | undefined): SummarySettings {
  const parsed = summarySettingsSchema.safeParse(settings ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AiInputError(`settings.${issue.path.join('.')}`, issue.message);
  }
  return parsed.data;
}

/** Splits HTML between top-level blocks so each piece is valid on its own. */
function splitHtmlBlocks(html: string): string[] {
  return html.split(/(?<=<\/(?:p|ul|ol|h[1-6]|table|blockquote|pre|div)>|<br>)/i).filter((b) => b.trim() !== '');
}
