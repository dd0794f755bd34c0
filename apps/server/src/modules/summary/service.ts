import {
  canSummarize,
  contentTypeSchema,
  languageCodeSchema,
  promptKeySchema,
  summaryCitationSchema,
  summaryTranslationSchema,
  type Summary as SummaryDto,
  type SummaryCitation,
  type SummaryList,
  type SummaryTranslations,
} from '@mbox/shared';
import { DecryptionError, UNREADABLE_TEXT, decryptText, loadDataKey, summaryContext } from '../../crypto/encryption.js';
import type { AppDeps } from '../../deps.js';
import type { Summary } from '../../generated/prisma/client.js';
import { findOwnMeeting } from '../meeting/service.js';

/** Keeps the well-formed entries of a stored translations object (a JSON column). */
function readTranslations(stored: unknown, open: (text: string) => string): SummaryTranslations {
  const translations: SummaryTranslations = {};
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return translations;
  for (const [code, value] of Object.entries(stored)) {
    const language = languageCodeSchema.safeParse(code);
    const translation = summaryTranslationSchema.safeParse(value);
    if (language.success && translation.success) translations[language.data] = { text: open(translation.data.text) };
  }
  return translations;
}

/** Keeps the well-formed entries of a stored citations table (a JSON column), by number. */
export function readCitations(stored: unknown): SummaryCitation[] {
  if (!Array.isArray(stored)) return [];
  return stored
    .flatMap((entry) => {
      const citation = summaryCitationSchema.safeParse(entry);
      return citation.success ? [citation.data] : [];
    })
    .sort((a, b) => a.n - b.n);
}

/**
 * The API form of a stored summary; null for a row whose prompt key or type this version does not
 * know. `key` is the owner's data key, needed when the summary is encrypted.
 */
export function toSummaryDto(summary: Summary, key: Buffer | null): SummaryDto | null {
  const promptKey = promptKeySchema.safeParse(summary.promptKey);
  const type = contentTypeSchema.safeParse(summary.type);
  if (!promptKey.success || !type.success) return null;
  const open = (text: string) => {
    if (!summary.encrypted) return text;
    try {
      if (!key) throw new DecryptionError('No data key');
      return decryptText(key, text, summaryContext(summary.meetingId));
    } catch (error) {
      // One unreadable summary (e.g. after a master key change) must not hide the others.
      if (error instanceof DecryptionError) return UNREADABLE_TEXT;
      throw error;
    }
  };
  return {
    docId: summary.id,
    type: type.data,
    title: summary.title,
    text: open(summary.text),
    translations: readTranslations(summary.translations, open),
    encrypted: summary.encrypted,
    promptKey: promptKey.data,
    customPrompt: summary.customPrompt,
    citations: readCitations(summary.citations),
    model: modelOf(summary.settings),
  };
}

/** The model a stored summary recorded in its settings ('' before it was recorded). */
function modelOf(settings: unknown): string {
  const model = settings && typeof settings === 'object' ? (settings as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : '';
}

/** Whether a meeting has enough messages from enough speakers to be summarised (shared rule). */
export async function summariesDisabled(deps: AppDeps, meetingId: string): Promise<boolean> {
  const messages = await deps.db.message.findMany({ where: { meetingId }, select: { user: true } });
  return !canSummarize(messages);
}

/**
 * The summaries of the user's meeting, oldest first, whether summaries can be generated, and the
 * prompt list the picker offers (SUMMARY_PROMPT_LIST).
 */
export async function listSummaries(deps: AppDeps, userId: string, meetingId: string): Promise<SummaryList> {
  await findOwnMeeting(deps, userId, meetingId);
  const rows = await deps.db.summary.findMany({ where: { meetingId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const key = rows.some((s) => s.encrypted) ? await loadDataKey(deps.db, deps.secrets.masterKey, userId) : null;
  const summaries = rows.flatMap((row) => {
    const dto = toSummaryDto(row, key);
    if (!dto) deps.log.warn({ summaryId: row.id, promptKey: row.promptKey, type: row.type }, 'summary of unknown kind skipped');
    return dto ? [dto] : [];
  });
  return {
    summaries,
    summariesDisabled: await summariesDisabled(deps, meetingId),
    promptList: deps.config.SUMMARY_PROMPT_LIST,
  };
}
