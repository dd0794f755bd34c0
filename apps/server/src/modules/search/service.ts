import {
  UNTITLED_MEETING,
  type SearchContextLine,
  type SearchMatchKind,
  type SearchOutput,
  type SearchResult,
  type Snippet,
} from '@mbox/shared';
import { epochMsOf } from '../../db/json-sql.js';
import type { AppDeps } from '../../deps.js';
import { Prisma } from '../../generated/prisma/client.js';

/**
 * Lines ranked per configuration: a word in more lines than this (a common one) is ranked among the
 * first this many the index yields. Ranking every match of such a word costs ~175 ms at 35,000 lines,
 * this bound ~10 ms (docs/search.md, tests/bench/search.bench.ts).
 */
const LINE_CANDIDATES = 1_000;
/** At most this many line hits of one meeting, so one long meeting does not fill the answer. */
const LINES_PER_MEETING = 3;
/** word_similarity from which a name or title counts as the query misspelled: 'Jon' → 'John', 'Micheal' → 'Michael'. */
const NAME_SIMILARITY = 0.5;

// Marks around matched words in the texts PostgreSQL writes; removed from the texts first.
const OPEN = '\u0002';
const CLOSE = '\u0003';
const HEADLINE_OPTIONS = `StartSel=${OPEN}, StopSel=${CLOSE}, MaxWords=40, MinWords=20, ShortWord=2`;
/** A title is short: every match in it is marked. */
const TITLE_HEADLINE_OPTIONS = `StartSel=${OPEN}, StopSel=${CLOSE}, HighlightAll=true`;
const MARKS_PATTERN = new RegExp(`${OPEN}([^${CLOSE}]*)${CLOSE}`, 'g');

/** A text with matched words between OPEN and CLOSE, as parts; marks apart by only spaces join ('customer feedback'). */
export function snippetParts(marked: string): Snippet {
  const parts: Snippet = [];
  let last = 0;
  const push = (text: string, match: boolean) => {
    const previous = parts.at(-1);
    const beforePrevious = parts.at(-2);
    if (match && previous && !previous.match && previous.text.trim() === '' && beforePrevious?.match) {
      parts.pop();
      beforePrevious.text += previous.text + text;
    } else if (text) parts.push({ text, match });
  };
  for (const found of marked.matchAll(MARKS_PATTERN)) {
    push(marked.slice(last, found.index), false);
    push(found[1]!, true);
    last = found.index + found[0].length;
  }
  push(marked.slice(last), false);
  return parts;
}

/** `text` without the mark characters, so stored text never fakes a mark. */
const clean = (column: string) => Prisma.raw(`translate(${column}, E'\\x02\\x03', '')`);

/** Words of `column` whose trigram similarity to the query is high enough, marked (names, titles). */
function markSimilarWords(column: string, q: string): Prisma.Sql {
  return Prisma.sql`(SELECT string_agg(CASE WHEN word_similarity(${q}, w) >= ${NAME_SIMILARITY} THEN ${OPEN} || w || ${CLOSE} ELSE w END, ' ' ORDER BY n)
    FROM regexp_split_to_table(${clean(column)}, '\\s+') WITH ORDINALITY AS s(w, n))`;
}

/** A searchConfig of the user's meetings, and the configuration it names ('simple' for one PostgreSQL lacks). */
interface Config {
  name: string;
  regconfig: string;
}

/** Line hits in meetings indexed with `config`: a bounded candidate set (the query a constant, so the GIN index serves it). */
function lineHits(userId: string, config: Config, q: string): Prisma.Sql {
  return Prisma.sql`(SELECT c.id, c."meetingId", c."spokenAt", ts_rank(c."searchVector", query) AS score, ${config.regconfig} AS config
    FROM "Message" c JOIN "Meeting" mt ON mt.id = c."meetingId", websearch_to_tsquery(${config.regconfig}::regconfig, ${q}) AS query
    WHERE mt."userId" = ${userId} AND NOT mt.encrypted AND mt."searchConfig" = ${config.name} AND c."searchVector" @@ query
    LIMIT ${LINE_CANDIDATES})`;
}

/** Summary hits in meetings indexed with `config`. */
function summaryHits(userId: string, config: Config, q: string): Prisma.Sql {
  return Prisma.sql`(SELECT s.id, s."meetingId", ts_rank(s."searchVector", query) AS score, ${config.regconfig} AS config
    FROM "Summary" s JOIN "Meeting" mt ON mt.id = s."meetingId", websearch_to_tsquery(${config.regconfig}::regconfig, ${q}) AS query
    WHERE mt."userId" = ${userId} AND NOT mt.encrypted AND mt."searchConfig" = ${config.name} AND s."searchVector" @@ query
    LIMIT ${LINE_CANDIDATES})`;
}

/** Meetings indexed with `config` whose title has the query's words (stemmed), or a word like it (trigrams). */
function titleHits(userId: string, config: Config, q: string): Prisma.Sql {
  return Prisma.sql`(SELECT mt.id AS "meetingId",
      CASE WHEN to_tsvector(${config.regconfig}::regconfig, mt.title) @@ query THEN 0.1 ELSE 0.1 * word_similarity(${q}, mt.title) END AS score,
      ${config.regconfig} AS config
    FROM "Meeting" mt, websearch_to_tsquery(${config.regconfig}::regconfig, ${q}) AS query
    WHERE mt."userId" = ${userId} AND NOT mt.encrypted AND mt."searchConfig" = ${config.name}
      AND (to_tsvector(${config.regconfig}::regconfig, mt.title) @@ query OR word_similarity(${q}, mt.title) >= ${NAME_SIMILARITY}))`;
}

interface Row {
  kind: SearchMatchKind;
  meetingId: string;
  title: string;
  date: number;
  messageId: string | null;
  speaker: string | null;
  summaryTitle: string | null;
  marked: string | null;
  before: SearchContextLine | null;
  after: SearchContextLine | null;
  score: number;
}

/** A line next to a hit, unless it is sealed (a line encrypted on its own). */
const contextLine = (alias: string) =>
  Prisma.raw(`CASE WHEN ${alias}.id IS NOT NULL AND NOT ${alias}.encrypted THEN json_build_object('messageId', ${alias}.id, 'speaker', ${alias}."user", 'text', ${alias}.text) END`);

/**
 * Every meeting of the user that is not encrypted, searched in one statement: transcript lines (their
 * text, cleanup and comment) and summaries by full text in each meeting's own text-search configuration,
 * ranked by ts_rank with the weights the triggers gave (text above cleanup above comment); titles by
 * full text or trigram similarity; participants' names by trigram similarity, so misspellings hit.
 * Snippets and context lines are made for the answer's rows only.
 */
export async function search(deps: AppDeps, userId: string, input: { q: string; limit: number }): Promise<SearchOutput> {
  const { q, limit } = input;
  const [own] = await deps.db.$queryRaw<{ configs: string; encrypted: number }[]>`
    SELECT (SELECT coalesce(json_agg(json_build_object('name', k.name, 'regconfig', COALESCE(c.cfgname::text, 'simple'))), '[]')::text
            FROM (SELECT DISTINCT "searchConfig" AS name FROM "Meeting" WHERE "userId" = ${userId} AND NOT encrypted) k
            LEFT JOIN pg_ts_config c ON c.cfgname = k.name) AS configs,
           (SELECT count(*)::int FROM "Meeting" WHERE "userId" = ${userId} AND encrypted) AS encrypted`;
  const configs = JSON.parse(own?.configs ?? '[]') as Config[];
  const encryptedMeetings = own?.encrypted ?? 0;
  if (configs.length === 0) return { results: [], encryptedMeetings };
  const [found] = await deps.db.$queryRaw<{ rows: string }[]>(searchStatement(userId, configs, q, limit));
  const rows = JSON.parse(found?.rows ?? '[]') as Row[];
  const results: SearchResult[] = rows.map((row) => ({
    meetingId: row.meetingId,
    meetingTitle: row.title.trim() || UNTITLED_MEETING,
    meetingDate: row.date,
    kind: row.kind,
    messageId: row.messageId,
    speaker: row.speaker,
    summaryTitle: row.summaryTitle,
    snippet: snippetParts(row.marked ?? ''),
    before: row.before,
    after: row.after,
    score: row.score,
  }));
  return { results, encryptedMeetings };
}

/** The search itself (exported for EXPLAIN in docs/search.md's measurements). */
export function searchStatement(userId: string, configs: Config[], q: string, limit: number): Prisma.Sql {
  const union = (branch: (config: Config) => Prisma.Sql) => Prisma.join(configs.map(branch), ' UNION ALL ');
  const headline = (column: string) => Prisma.sql`ts_headline(t.config::regconfig, ${clean(column)}, query, ${HEADLINE_OPTIONS})`;
  const matches = (column: string) => Prisma.sql`to_tsvector(t.config::regconfig, COALESCE(${Prisma.raw(column)}, '')) @@ query`;
  return Prisma.sql`
    WITH lines AS (
      SELECT id, "meetingId", score, config FROM (
        SELECT l.*, row_number() OVER (PARTITION BY "meetingId" ORDER BY score DESC, "spokenAt", id) AS nth FROM (${union((c) => lineHits(userId, c, q))}) l
      ) ranked WHERE nth <= ${LINES_PER_MEETING}
    ),
    participants AS (
      SELECT mt.id AS "meetingId", best.name, 0.08 * best.similarity AS score, mt."searchConfig" AS config
      FROM "Meeting" mt CROSS JOIN LATERAL (
        SELECT name, word_similarity(${q}, name) AS similarity FROM unnest(mt.users) AS name ORDER BY 2 DESC LIMIT 1
      ) best
      WHERE mt."userId" = ${userId} AND NOT mt.encrypted AND best.similarity >= ${NAME_SIMILARITY}
    ),
    hits AS (
      SELECT 'line' AS kind, "meetingId", id AS target, NULL::text AS name, score, config FROM lines
      UNION ALL SELECT 'summary', "meetingId", id, NULL, score, config FROM (${union((c) => summaryHits(userId, c, q))}) s
      UNION ALL SELECT 'title', "meetingId", NULL, NULL, score, config FROM (${union((c) => titleHits(userId, c, q))}) ti
      UNION ALL SELECT 'participant', "meetingId", NULL, name, score, config FROM participants
    ),
    top AS (SELECT * FROM hits ORDER BY score DESC LIMIT ${limit})
    SELECT coalesce(json_agg(json_build_object(
        'kind', CASE WHEN t.kind <> 'line' OR ${matches('c.text')} THEN t.kind WHEN ${matches('c."aiFixed"')} THEN 'cleanup' ELSE 'comment' END,
        'meetingId', t."meetingId", 'title', m.title,
        'date', ${Prisma.raw(epochMsOf(`CASE WHEN m."startedAt" < '10000-01-01' THEN m."startedAt" ELSE m."createdAt" END`))},
        'messageId', c.id, 'speaker', COALESCE(c."user", t.name), 'summaryTitle', s.title,
        'marked', CASE t.kind
          WHEN 'line' THEN CASE WHEN ${matches('c.text')} THEN ${headline('c.text')}
                                WHEN ${matches('c."aiFixed"')} THEN ${headline('c."aiFixed"')}
                                ELSE ${headline('c.comment')} END
          WHEN 'summary' THEN ts_headline(t.config::regconfig, regexp_replace(${clean('s.text')}, '<[^>]*>', ' ', 'g'), query, ${HEADLINE_OPTIONS})
          WHEN 'title' THEN CASE WHEN to_tsvector(t.config::regconfig, m.title) @@ query
                                 THEN ts_headline(t.config::regconfig, ${clean('m.title')}, query, ${TITLE_HEADLINE_OPTIONS})
                                 ELSE ${markSimilarWords('m.title', q)} END
          ELSE ${markSimilarWords('t.name', q)} END,
        'before', ${contextLine('p')}, 'after', ${contextLine('n')}, 'score', t.score
      ) ORDER BY t.score DESC, m."startedAt" DESC), '[]')::text AS rows
    FROM top t
    JOIN "Meeting" m ON m.id = t."meetingId"
    CROSS JOIN LATERAL websearch_to_tsquery(t.config::regconfig, ${q}) AS query
    LEFT JOIN "Message" c ON t.kind = 'line' AND c.id = t.target
    LEFT JOIN "Summary" s ON t.kind = 'summary' AND s.id = t.target
    LEFT JOIN LATERAL (SELECT x.id, x."user", x.text, x.encrypted FROM "Message" x
                       WHERE x."meetingId" = c."meetingId" AND x."spokenAt" <= c."spokenAt" AND (x."spokenAt", x.id) < (c."spokenAt", c.id)
                       ORDER BY x."spokenAt" DESC, x.id DESC LIMIT 1) p ON true
    LEFT JOIN LATERAL (SELECT x.id, x."user", x.text, x.encrypted FROM "Message" x
                       WHERE x."meetingId" = c."meetingId" AND x."spokenAt" >= c."spokenAt" AND (x."spokenAt", x.id) > (c."spokenAt", c.id)
                       ORDER BY x."spokenAt", x.id LIMIT 1) n ON true`;
}
