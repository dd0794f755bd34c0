import { z } from 'zod';
import {
  DEFAULT_SUMMARY_SETTINGS,
  ORIGINAL_LANGUAGE_CODE,
  SUMMARY_UNAVAILABLE_MESSAGE,
  enoughToSummarize,
  isPremiumActive,
  summarySettingsSchema,
  type GenerateSummaryInput,
  type PromptKey,
  type RegenerateSummaryInput,
  type Summary as SummaryDto,
  type SummarySettings,
  type SummaryCitation,
  type SummaryStreamEvent,
  type TranslateSummaryInput,
} from '@mbox/shared';
import { transcriptPage, type CitedTurn, type PagedTranscript } from '../../ai/index.js';
import { AppError, invalidField } from '../../app-error.js';
import {
  UNREADABLE_TEXT,
  encryptText,
  ensureDataKey,
  loadDataKey,
  summaryContext,
} from '../../crypto/encryption.js';
import type { AppDeps } from '../../deps.js';
import type { Summary } from '../../generated/prisma/client.js';
import { streamJob } from '../../stream-job.js';
import { estimateTokens, meterGeneration, modelTier, serverEngine, type GenerationMeter, type UseCounter } from '../ai-usage/service.js';
import type { AuthUser } from '../auth/service.js';
import { meetingNotFound } from '../meeting/service.js';
import { readMeetingInPages, readTranscriptInPages } from '../meeting/whole-meeting.js';
import { enqueueWebhookEvent } from '../webhooks/events.js';
import { webhookMeetingRef } from '../webhooks/service.js';
import { callAi } from './ai-errors.js';
import { toSummaryDto } from './service.js';

export const CUSTOM_PROMPT_PREMIUM = 'Questions about a meeting are a premium feature: upgrade to premium to use them';

function summaryNotFound(): AppError {
  return new AppError('NOT_FOUND', 'Summary not found');
}

/** Custom questions are premium; checked before the daily allowance is touched. */
function assertPromptAllowed(user: AuthUser, promptKey: PromptKey): void {
  if (promptKey === 'custom' && !isPremiumActive(user)) throw new AppError('FORBIDDEN', CUSTOM_PROMPT_PREMIUM);
}

/** Settings used when a call gives none: a premium user's saved defaults, else the server defaults. */
async function defaultSettings(deps: AppDeps, user: AuthUser): Promise<SummarySettings> {
  if (!isPremiumActive(user)) return DEFAULT_SUMMARY_SETTINGS;
  const saved = await deps.db.user.findUniqueOrThrow({
    where: { id: user.id },
    select: { defaultSummaryDepth: true, defaultMinSummaryLength: true, defaultMaxSummaryLength: true, defaultTranslateTo: true },
  });
  const parsed = summarySettingsSchema.safeParse({
    depth: saved.defaultSummaryDepth,
    minLength: saved.defaultMinSummaryLength,
    maxLength: saved.defaultMaxSummaryLength,
    translateTo: saved.defaultTranslateTo,
  });
  if (parsed.success) return parsed.data;
  // Saved before a rule changed: generating with the server defaults beats refusing to generate.
  deps.log.warn({ userId: user.id, issues: parsed.error.issues }, 'saved summary defaults are invalid; using the server defaults');
  return DEFAULT_SUMMARY_SETTINGS;
}

interface LoadedTranscript {
  transcript: PagedTranscript;
  /** Characters of its speakers and texts: the generation's token estimate. */
  chars: number;
  /** Some text is encrypted, so the summary must be. */
  sealed: boolean;
}

/**
 * The meeting's transcript in plain text, refused while the meeting is too small to summarise
 * (the shared rule of the summary list). Read a page at a time, the event loop free between pages, each
 * page kept as the bytes of the JSON text the database wrote (readTranscriptInPages): the pages move to
 * the offline engine's worker thread, so 20,000 lines are neither parsed on the main thread nor copied
 * to the worker (docs/performance.md, "Offline summaries").
 */
async function loadTranscript(deps: AppDeps, userId: string, meetingId: string): Promise<LoadedTranscript> {
  // The meeting is the user's (NOT_FOUND otherwise); its own lines are read below, in the AI's shape.
  const { meet } = await readMeetingInPages(deps, userId, meetingId);
  const transcript: PagedTranscript = { pages: [] };
  let lines = 0;
  const speakers = new Set<string>();
  let chars = 0;
  let sealed = meet.encrypted;
  for await (const page of readTranscriptInPages(deps, userId, meetingId)) {
    lines += page.lines;
    for (const speaker of page.speakers) speakers.add(speaker);
    chars += page.chars;
    sealed ||= page.encrypted;
    transcript.pages.push(transcriptPage(page.rows));
  }
  if (!enoughToSummarize(lines, speakers.size)) throw new AppError('PRECONDITION_FAILED', SUMMARY_UNAVAILABLE_MESSAGE);
  return { transcript, chars, sealed };
}

/** The stored citations table: citation n is the line `cited[n - 1]` (docs/ai.md, "Citations"). */
function citationsOf(cited: readonly (CitedTurn | null)[]): SummaryCitation[] {
  return cited.flatMap((turn, i) => {
    if (!turn?.id || turn.spokenAt === undefined) return [];
    return [{ n: i + 1, messageId: turn.id, spokenAt: turn.spokenAt, speaker: turn.speaker }];
  });
}

interface Target {
  meetingId: string;
  promptKey: PromptKey;
  /** The question of a custom prompt; '' for catalogue prompts. */
  customPrompt: string;
  settings: SummarySettings;
  /** The stored summary to replace (regeneration); else upserted by (meeting, prompt, question). */
  summaryId?: string;
  /** Regenerate's variant: 0 for a first generation, the stored one + 1 for each regeneration. */
  variant: number;
}

interface RunOptions {
  onToken?: (text: string) => void;
  signal?: AbortSignal;
  /** The daily counter it takes a use of (default the meeting AI's). */
  counter?: UseCounter;
}

/**
 * Generates a summary and stores it whole, or stores nothing when generation fails: one metered
 * generation of the user's day (docs/ai.md, "Daily limits"). Marks the meeting analysed. Summaries
 * of meetings with encrypted text are stored encrypted.
 */
function generateAndStore(deps: AppDeps, user: AuthUser, target: Target, options: RunOptions = {}): Promise<SummaryDto> {
  return deps.ai.wholeMeetingTurn(async () => {
    // A client that left while the summary waited for its turn needs no reading.
    options.signal?.throwIfAborted();
    const loaded = await loadTranscript(deps, user.id, target.meetingId);
    return meterGeneration(deps, user, { engine: serverEngine(deps), estimatedTokens: estimateTokens(loaded.chars), counter: options.counter }, (meter) =>
      writeSummary(deps, user, target, loaded, options, meter),
    );
  });
}

async function writeSummary(
  deps: AppDeps,
  user: AuthUser,
  target: Target,
  { transcript, sealed }: LoadedTranscript,
  options: RunOptions,
  meter: GenerationMeter,
): Promise<SummaryDto> {
  const { meetingId } = target;
  const generated = await callAi(deps, () =>
    deps.ai.generateSummary({
      transcript,
      promptKey: target.promptKey,
      customPrompt: target.customPrompt || undefined,
      settings: target.settings,
      variant: target.variant,
      timeZone: user.timezone,
      tier: modelTier(user),
      onToken: options.onToken,
      signal: options.signal,
    }),
  );
  meter.addUsage(generated.usage);
  const { row, key } = await deps.db.$transaction(async (tx) => {
    // Locks the meeting row: a deletion or an encryption of the meeting waits for this write.
    const [meeting] = await tx.meeting.updateManyAndReturn({
      where: { id: meetingId, userId: user.id },
      // Analysed: the user asked for it. The Action Items the server reads at a meeting's end (no daily
      // counter) leave the meeting as it was, so the dashboard's analysed count stays the user's.
      data: { isAnalyzed: options.counter === 'none' ? undefined : true },
      select: { encrypted: true, title: true },
    });
    if (!meeting) throw meetingNotFound();
    const key = sealed || meeting.encrypted ? await ensureDataKey(tx, deps.secrets.masterKey, user.id) : null;
    const data = {
      type: 'summary',
      title: generated.title,
      text: key ? encryptText(key, generated.html, summaryContext(meetingId)) : generated.html,
      // Translations belong to the text they were made from.
      translations: {},
      citations: citationsOf(generated.citedTurns),
      settings: { ...target.settings, model: generated.model, chunks: generated.chunks, variant: target.variant },
      encrypted: key !== null,
    };
    let row: Summary;
    if (target.summaryId) {
      const [replaced] = await tx.summary.updateManyAndReturn({ where: { id: target.summaryId, meetingId }, data });
      if (!replaced) throw summaryNotFound();
      row = replaced;
    } else {
      row = await tx.summary.upsert({
        where: {
          meetingId_promptKey_customPrompt: { meetingId, promptKey: target.promptKey, customPrompt: target.customPrompt },
        },
        create: { ...data, meetingId, promptKey: target.promptKey, customPrompt: target.customPrompt },
        update: data,
      });
    }
    // In the same transaction: the webhook deliveries exist exactly when the summary does.
    await enqueueWebhookEvent(
      deps,
      user.id,
      'summary.created',
      {
        meeting: webhookMeetingRef(deps, { id: meetingId, title: meeting.title }),
        // The text of an encrypted meeting never leaves the server (docs/webhooks.md).
        summary: { id: row.id, promptKey: row.promptKey, title: row.title, text: key ? null : generated.html, encrypted: key !== null },
      },
      { tx },
    );
    return { row, key };
  });
  meter.stored();
  const dto = toSummaryDto(row, key);
  if (!dto) throw new Error(`Stored summary ${row.id} has an unknown prompt key`);
  return dto;
}

/**
 * The stored summary of a prompt type (or question) when nothing was said after it was written:
 * asking for it again returns it instead of generating the same again (Regenerate writes it anew).
 * One that cannot be decrypted does not count.
 */
async function currentSummary(deps: AppDeps, user: AuthUser, meetingId: string, promptKey: PromptKey, customPrompt: string) {
  const row = await deps.db.summary.findFirst({
    where: { meetingId, promptKey, customPrompt, meeting: { userId: user.id } },
    include: { meeting: { select: { lastLineAt: true } } },
  });
  if (!row || (row.meeting.lastLineAt && row.updatedAt < row.meeting.lastLineAt)) return null;
  const key = row.encrypted ? await loadDataKey(deps.db, deps.secrets.masterKey, user.id) : null;
  const summary = toSummaryDto(row, key);
  return summary && summary.text !== UNREADABLE_TEXT ? summary : null;
}

/**
 * POST /v1/prompts: the meeting's summary of one prompt type (or answer to a question), stored; the
 * stored one when it is current (no generation, nothing counted).
 */
export async function generateSummary(
  deps: AppDeps,
  user: AuthUser,
  input: GenerateSummaryInput,
  options: RunOptions = {},
): Promise<SummaryDto> {
  assertPromptAllowed(user, input.promptKey);
  const current = await currentSummary(deps, user, input.meetKey, input.promptKey, input.customPrompt ?? '');
  if (current) return current;
  return generateAndStore(
    deps,
    user,
    {
      meetingId: input.meetKey,
      promptKey: input.promptKey,
      customPrompt: input.customPrompt ?? '',
      settings: await defaultSettings(deps, user),
      variant: 0,
    },
    options,
  );
}

/** The variant a stored summary was generated with (0 when it predates variants). */
function storedVariant(settings: unknown): number {
  const parsed = storedVariantSchema.safeParse(settings);
  return parsed.success ? parsed.data.variant : 0;
}
const storedVariantSchema = z.object({ variant: z.number().int().min(0) });

/**
 * PUT /v1/prompts/{summaryKey} and PUT /v1/p/prompts/{summaryKey}: generates the stored summary
 * `summaryKey` of meeting `meetKey` again (a custom one answers its question again), with the given
 * settings or the user's defaults.
 */
export async function regenerateSummary(
  deps: AppDeps,
  user: AuthUser,
  input: RegenerateSummaryInput,
  settings?: SummarySettings,
): Promise<SummaryDto> {
  const existing = await deps.db.summary.findFirst({
    where: { id: input.summaryKey, meetingId: input.meetKey, meeting: { userId: user.id } },
    select: { id: true, promptKey: true, customPrompt: true, settings: true },
  });
  if (!existing) throw summaryNotFound();
  if (existing.promptKey !== input.promptKey) {
    throw invalidField('promptKey', `must be the summary's prompt key '${existing.promptKey}'`);
  }
  assertPromptAllowed(user, input.promptKey);
  return generateAndStore(deps, user, {
    meetingId: input.meetKey,
    promptKey: input.promptKey,
    customPrompt: existing.customPrompt,
    settings: settings ?? (await defaultSettings(deps, user)),
    summaryId: existing.id,
    // Each regeneration picks another selection (docs/ai.md, "Regenerate").
    variant: storedVariant(existing.settings) + 1,
  });
}

/**
 * summary.generateStream: POST /v1/prompts with the answer's text handed over as it is produced.
 * Token texts are the model's raw output (show them as text); the final summary is the sanitised,
 * stored one. Leaving early cancels the LLM request; a stream that fails or is cancelled before its
 * summary is stored costs nothing, one left after it was stored keeps its use.
 */
export async function* streamSummary(
  deps: AppDeps,
  user: AuthUser,
  input: GenerateSummaryInput,
  signal: AbortSignal | undefined,
): AsyncGenerator<SummaryStreamEvent> {
  const summary = yield* streamJob<SummaryStreamEvent, SummaryDto>(
    (emit, jobSignal) => generateSummary(deps, user, input, { signal: jobSignal, onToken: (text) => emit({ type: 'token', text }) }),
    { signals: [deps.shutdown, signal] },
  );
  yield { type: 'done', summary };
}

/**
 * POST /v1/translate: the summary's text in a language. English is the original; a stored
 * translation is reused; otherwise the LLM translates it (one metered generation) and the result is
 * stored, encrypted like the summary.
 */
export async function translateSummary(deps: AppDeps, user: AuthUser, input: TranslateSummaryInput): Promise<{ text: string }> {
  const row = await deps.db.summary.findFirst({
    where: { id: input.summaryKey, meetingId: input.meetKey, type: input.type, meeting: { userId: user.id } },
  });
  if (!row) throw summaryNotFound();
  const key = row.encrypted ? await loadDataKey(deps.db, deps.secrets.masterKey, user.id) : null;
  const summary = toSummaryDto(row, key);
  if (!summary) throw summaryNotFound();
  if (input.languageKey === ORIGINAL_LANGUAGE_CODE) return { text: summary.text };
  const stored = summary.translations[input.languageKey];
  if (stored) return { text: stored.text };
  if (summary.text === UNREADABLE_TEXT || (row.encrypted && !key)) {
    throw new AppError('PRECONDITION_FAILED', 'This summary cannot be decrypted with the server key');
  }

  // The summary goes in and about as much comes out.
  const request = { engine: serverEngine(deps), estimatedTokens: estimateTokens(summary.text.length * 2) };
  return meterGeneration(deps, user, request, async (meter) => {
    const { html, usage } = await callAi(deps, () =>
      deps.ai.translate({ html: summary.text, languageCode: input.languageKey, tier: modelTier(user) }),
    );
    meter.addUsage(usage);
    const sealed = key ? encryptText(key, html, summaryContext(row.meetingId)) : html;
    // One statement, so translations into two languages at once both stay; skipped when the summary
    // was regenerated meanwhile (its translations were reset and this one is of the old text).
    await deps.db.$executeRaw`
      UPDATE "Summary"
      SET "translations" = (CASE WHEN jsonb_typeof("translations") = 'object' THEN "translations" ELSE '{}'::jsonb END)
        || jsonb_build_object(${input.languageKey}::text, jsonb_build_object('text', ${sealed}::text))
      WHERE "id" = ${row.id} AND "text" = ${row.text}`;
    return { text: html };
  });
}
