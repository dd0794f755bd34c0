import { z } from 'zod';

/** Longest query accepted: a sentence or two; longer text is no search anyone types. */
export const SEARCH_QUERY_MAX = 200;
export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 50;

/** GET /v1/search?q=&limit=: words, "a phrase", -excluded (web search syntax), or a name. */
export const searchInputSchema = z.strictObject({
  q: z
    .string({ error: 'q is required: the words to search for' })
    .trim()
    .min(1, 'q must not be empty: type a word, a "phrase" or a name')
    .max(SEARCH_QUERY_MAX, `q must be at most ${SEARCH_QUERY_MAX} characters`),
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_DEFAULT),
});
export type SearchInput = z.input<typeof searchInputSchema>;

/**
 * What a result matched: a transcript line's words, its cleanup (the AI-fixed text), its comment,
 * the meeting's title, a participant's or speaker's name, or a summary.
 */
export const SEARCH_MATCH_KINDS = ['line', 'cleanup', 'comment', 'title', 'participant', 'summary'] as const;
export const searchMatchKindSchema = z.enum(SEARCH_MATCH_KINDS);
export type SearchMatchKind = z.infer<typeof searchMatchKindSchema>;

/** A text cut into parts; `match` parts are the words the query found (shown marked, never as HTML). */
export const snippetSchema = z.array(z.object({ text: z.string(), match: z.boolean() }));
export type Snippet = z.infer<typeof snippetSchema>;

/** A line next to a hit, for context. */
export const searchContextLineSchema = z.object({ messageId: z.string(), speaker: z.string(), text: z.string() });
export type SearchContextLine = z.infer<typeof searchContextLineSchema>;

export const searchResultSchema = z.object({
  meetingId: z.string(),
  meetingTitle: z.string(),
  /** When the meeting started (epoch ms). */
  meetingDate: z.number(),
  kind: searchMatchKindSchema,
  /** The line hit (line, cleanup, comment); null for other kinds. Opens as `/<meetingId>?line=<messageId>`. */
  messageId: z.string().nullable(),
  /** Who said the line, or the participant's name found. */
  speaker: z.string().nullable(),
  /** The summary's title (kind summary). */
  summaryTitle: z.string().nullable(),
  snippet: snippetSchema,
  before: searchContextLineSchema.nullable(),
  after: searchContextLineSchema.nullable(),
  /** Higher is better; comparable within one answer only. */
  score: z.number(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const searchOutputSchema = z.object({
  /** Best first. A meeting gives at most a few line hits, so one long meeting does not fill the page. */
  results: z.array(searchResultSchema),
  /** The user's encrypted meetings, which are never searched (their text is sealed). */
  encryptedMeetings: z.number().int(),
});
export type SearchOutput = z.infer<typeof searchOutputSchema>;

/**
 * Text-search configurations for the languages of product.md, Limits, where PostgreSQL 15 and PGlite both ship one
 * (`select cfgname from pg_ts_config` lists the same 29 on both); every other language is indexed with
 * 'simple' (words lower-cased, no stemming). Keys are primary language subtags; 'ua' is the documented
 * code for Ukrainian, 'uk' the browser's, and 'nb'/'nn' are the browser's Norwegian.
 */
export const SEARCH_CONFIGS: Readonly<Record<string, string>> = {
  ar: 'arabic',
  bn: 'simple',
  zh: 'simple',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  fr: 'french',
  de: 'german',
  gu: 'simple',
  hi: 'hindi',
  id: 'indonesian',
  it: 'italian',
  ja: 'simple',
  kn: 'simple',
  ko: 'simple',
  ml: 'simple',
  mr: 'simple',
  no: 'norwegian',
  nb: 'norwegian',
  nn: 'norwegian',
  pl: 'simple',
  pt: 'portuguese',
  ua: 'simple',
  uk: 'simple',
  es: 'spanish',
  sv: 'swedish',
  ta: 'tamil',
  te: 'simple',
  tr: 'turkish',
  th: 'simple',
  ur: 'simple',
  vi: 'simple',
};

/** What a meeting is indexed with when the browser names no language (the column's default). */
export const DEFAULT_SEARCH_CONFIG = 'english';

/** 'de-DE' → 'german', 'pt_BR' → 'portuguese', 'ja' → 'simple'; a language product.md, Limits lacks → 'simple'. */
export function searchConfigForLanguage(tag: string): string {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return SEARCH_CONFIGS[primary] ?? 'simple';
}

/**
 * The search configuration for an `Accept-Language` header ('de-DE,de;q=0.9,en;q=0.8'): its most
 * preferred language, mapped; the default when the header is missing or names only '*'.
 */
export function searchConfigForAcceptLanguage(header: string | undefined): string {
  const ranges = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.tag !== '' && range.tag !== '*' && range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const best = ranges[0];
  return best ? searchConfigForLanguage(best.tag) : DEFAULT_SEARCH_CONFIG;
}
