import { UNTITLED_MEETING } from '@mbox/shared';
import { epochMsOf } from '../../db/json-sql.js';
import type { AppDeps } from '../../deps.js';
import { Prisma } from '../../generated/prisma/client.js';

/**
 * Transcript lines across a user's meetings, ranked for a question (ask all meetings, docs/ask.md):
 * the full-text index of docs/search.md, read with OR semantics and weighted by how rare each word is.
 */

/** Meetings started in [from, to) (epoch ms); null ends are open. */
export interface MeetingPeriod {
  from: number | null;
  to: number | null;
}

/** A text-search configuration of the meetings in scope: the question's words as its lexemes, and its meetings. */
interface ScopeConfig {
  name: string;
  lexemes: string[];
  meetings: string[];
}

/** What a question across meetings searches: the user's meetings in the period that are not encrypted. */
export interface LineScope {
  userId: string;
  period: MeetingPeriod;
  /** Meetings searched. */
  meetings: number;
  /** Encrypted meetings in the period: left out, their text is sealed. */
  encryptedMeetings: number;
  /** Lines stored in the meetings searched (the collection size of the words' weights). */
  lines: number;
  configs: ScopeConfig[];
}

/** A line found, with its meeting. */
export interface FoundLine {
  messageId: string;
  meetingId: string;
  meetingTitle: string;
  /** Epoch ms the meeting started. */
  meetingDate: number;
  speaker: string;
  text: string;
  spokenAt: number;
  /** Higher is better; comparable within one search. */
  score: number;
}

/**
 * Lines ranked per word: a word in more lines than this (a common one) is weighed by this many and
 * ranked among the first this many the index yields; a line with a rarer word of the question is
 * found through that word. Bounds the work as docs/search.md's line candidates do.
 */
const TERM_CANDIDATES = 2_000;
/** Lines scored by every word of the question, after a first ranking by the words they were found with. */
const SHORTLIST = 300;
/** Words of a question searched at most: a question is a sentence; a pasted paragraph is bounded. */
const MAX_TERMS = 16;

function periodSql(alias: string, period: MeetingPeriod): Prisma.Sql {
  const from = period.from === null ? Prisma.empty : Prisma.sql` AND ${Prisma.raw(alias)}."startedAt" >= ${new Date(period.from)}::timestamp`;
  const to = period.to === null ? Prisma.empty : Prisma.sql` AND ${Prisma.raw(alias)}."startedAt" < ${new Date(period.to)}::timestamp`;
  return Prisma.sql`${from}${to}`;
}

/** The meetings a question searches: counted, with the question's words as lexemes of each configuration in use. */
export async function lineScope(deps: AppDeps, userId: string, period: MeetingPeriod, words: string): Promise<LineScope> {
  const [row] = await deps.db.$queryRaw<{ meetings: number; encrypted: number; lines: number; configs: string }[]>`
    WITH own AS (SELECT id, encrypted, "storedLines", "searchConfig" FROM "Meeting" m WHERE m."userId" = ${userId}${periodSql('m', period)})
    SELECT (SELECT count(*)::int FROM own WHERE NOT encrypted) AS meetings,
           (SELECT count(*)::int FROM own WHERE encrypted) AS encrypted,
           (SELECT coalesce(sum("storedLines"), 0)::int FROM own WHERE NOT encrypted) AS lines,
           (SELECT coalesce(json_agg(json_build_object('name', k.name, 'meetings', k.meetings,
                      'lexemes', tsvector_to_array(to_tsvector(COALESCE(c.cfgname::text, 'simple')::regconfig, ${words})))), '[]')::text
            FROM (SELECT "searchConfig" AS name, array_agg(id) AS meetings FROM own WHERE NOT encrypted GROUP BY "searchConfig") k
            LEFT JOIN pg_ts_config c ON c.cfgname = k.name) AS configs`;
  return {
    userId,
    period,
    meetings: row?.meetings ?? 0,
    encryptedMeetings: row?.encrypted ?? 0,
    lines: row?.lines ?? 0,
    configs: JSON.parse(row?.configs ?? '[]') as ScopeConfig[],
  };
}

/** A lexeme as a tsquery literal: quoted, so PostgreSQL takes it as it is (it is normalised already). */
const lexemeQuery = (lexeme: string) => `'${lexeme.replace(/'/g, "''")}'`;

const meetingFields = (m: string) =>
  Prisma.raw(`'meetingTitle', ${m}.title, 'meetingDate', ${epochMsOf(`CASE WHEN ${m}."startedAt" < '10000-01-01' THEN ${m}."startedAt" ELSE ${m}."createdAt" END`)}`);

function found(rows: FoundLine[]): FoundLine[] {
  return rows.map((row) => ({ ...row, meetingTitle: row.meetingTitle.trim() || UNTITLED_MEETING }));
}

/**
 * The best lines of the scope for its lexemes, best first, at most `perMeeting` of one meeting. A line
 * scores the sum, over the question's words it holds, of the word's weight (BM25's IDF over the lines
 * searched) times its ts_rank (text above cleanup above comment, as search ranks them, divided by the
 * log of the line's length); any one word is enough to be found.
 */
export async function bestLines(deps: AppDeps, scope: LineScope, options: { limit: number; perMeeting: number }): Promise<FoundLine[]> {
  const terms = scope.configs.flatMap((config) =>
    config.lexemes.slice(0, MAX_TERMS).map((lexeme) => ({ config: config.name, meetings: config.meetings, query: lexemeQuery(lexeme) })),
  );
  if (terms.length === 0 || scope.meetings === 0) return [];
  // The meetings as a list of ids the planner sees: it reads each word's index once and keeps the
  // lines of these meetings. Joined to a set of meetings instead, it may read the word's index once
  // per meeting (a nested loop of bitmap scans: seconds at 1,000 meetings).
  const hits = Prisma.join(
    terms.map(
      (term, i) => Prisma.sql`(SELECT ${i}::int AS term, c.id, ts_rank(c."searchVector", ${term.query}::tsquery, 1) AS tf FROM "Message" c
        WHERE c."meetingId" = ANY(${term.meetings}::text[]) AND c."searchVector" @@ ${term.query}::tsquery LIMIT ${TERM_CANDIDATES})`,
    ),
    ' UNION ALL ',
  );
  const values = Prisma.join(terms.map((term, i) => Prisma.sql`(${i}::int, ${term.config}, ${term.query}::tsquery)`));
  const [row] = await deps.db.$queryRaw<{ rows: string }[]>`
    WITH hits AS (${hits}),
    weights AS (
      SELECT t.term, t.config, t.query, ln(1 + (GREATEST(${scope.lines}::float8, df.n) - df.n + 0.5) / (df.n + 0.5)) AS idf
      FROM (VALUES ${values}) AS t(term, config, query)
      JOIN (SELECT term, count(*)::float8 AS n FROM hits GROUP BY term) df ON df.term = t.term
    ),
    -- Scored first by the words each line was found with, then the best few again by every word of
    -- the question they hold (a line found by a rare word may also hold a common one that was not read for it).
    shortlist AS (
      SELECT h.id FROM hits h JOIN weights w ON w.term = h.term GROUP BY h.id ORDER BY sum(w.idf * h.tf) DESC, h.id LIMIT ${SHORTLIST}
    ),
    scored AS (
      SELECT c.id, c."meetingId", c."user", c.text, c."spokenAt",
             (SELECT sum(w.idf * ts_rank(c."searchVector", w.query, 1)) FROM weights w
              WHERE w.config = s."searchConfig" AND c."searchVector" @@ w.query) AS score
      FROM shortlist h JOIN "Message" c ON c.id = h.id JOIN "Meeting" s ON s.id = c."meetingId"
    ),
    ranked AS (
      SELECT *, row_number() OVER (PARTITION BY "meetingId" ORDER BY score DESC, "spokenAt", id) AS nth FROM scored
    ),
    top AS (SELECT * FROM ranked WHERE nth <= ${options.perMeeting} ORDER BY score DESC, "spokenAt" DESC LIMIT ${options.limit})
    SELECT coalesce(json_agg(json_build_object(
        'messageId', t.id, 'meetingId', t."meetingId", ${meetingFields('s')}, 'speaker', t."user", 'text', t.text,
        'spokenAt', ${Prisma.raw(epochMsOf('t."spokenAt"'))}, 'score', t.score
      ) ORDER BY t.score DESC, t."spokenAt" DESC), '[]')::text AS rows
    FROM top t JOIN "Meeting" s ON s.id = t."meetingId"`;
  return found(JSON.parse(row?.rows ?? '[]') as FoundLine[]);
}

/**
 * The lines around each of `hits` in its meeting (`radius` before and after, the hit included), in
 * spoken order, keyed by the hit's id. Lines encrypted on their own are left out.
 */
export async function linesAround(deps: AppDeps, userId: string, hits: readonly string[], radius: number): Promise<Map<string, FoundLine[]>> {
  if (hits.length === 0) return new Map();
  const line = (x: string) =>
    Prisma.raw(`${x}.id, ${x}."user", ${x}.text, ${x}."spokenAt", ${x}.encrypted`);
  const [row] = await deps.db.$queryRaw<{ rows: string }[]>`
    SELECT coalesce(json_agg(json_build_object(
        'hit', c.id, 'messageId', x.id, 'meetingId', c."meetingId", ${meetingFields('m')}, 'speaker', x."user", 'text', x.text,
        'spokenAt', ${Prisma.raw(epochMsOf('x."spokenAt"'))}, 'score', 0
      ) ORDER BY c.id, x."spokenAt", x.id), '[]')::text AS rows
    FROM "Message" c JOIN "Meeting" m ON m.id = c."meetingId" AND m."userId" = ${userId} AND NOT m.encrypted
    CROSS JOIN LATERAL (
      (SELECT ${line('p')} FROM "Message" p WHERE p."meetingId" = c."meetingId" AND p."spokenAt" <= c."spokenAt"
         AND (p."spokenAt", p.id) < (c."spokenAt", c.id) ORDER BY p."spokenAt" DESC, p.id DESC LIMIT ${radius})
      UNION ALL SELECT ${line('c')}
      UNION ALL
      (SELECT ${line('n')} FROM "Message" n WHERE n."meetingId" = c."meetingId" AND n."spokenAt" >= c."spokenAt"
         AND (n."spokenAt", n.id) > (c."spokenAt", c.id) ORDER BY n."spokenAt", n.id LIMIT ${radius})
    ) x
    WHERE c.id = ANY(${[...hits]}::text[]) AND NOT x.encrypted`;
  const windows = new Map<string, FoundLine[]>();
  for (const { hit, ...line } of JSON.parse(row?.rows ?? '[]') as (FoundLine & { hit: string })[]) {
    const window = windows.get(hit) ?? [];
    window.push(line);
    windows.set(hit, window);
  }
  for (const [hit, window] of windows) windows.set(hit, found(window));
  return windows;
}

/** The latest lines of the scope's meetings, newest first: what a question without words is answered from. */
export async function latestLines(deps: AppDeps, scope: LineScope, limit: number): Promise<FoundLine[]> {
  if (scope.meetings === 0) return [];
  const [row] = await deps.db.$queryRaw<{ rows: string }[]>`
    WITH recent AS (
      SELECT id, title, "startedAt", "createdAt" FROM "Meeting" m
      WHERE m."userId" = ${scope.userId} AND NOT m.encrypted${periodSql('m', scope.period)}
      ORDER BY m."startedAt" DESC LIMIT ${limit}
    )
    SELECT coalesce(json_agg(json_build_object(
        'messageId', x.id, 'meetingId', m.id, ${meetingFields('m')}, 'speaker', x."user", 'text', x.text,
        'spokenAt', ${Prisma.raw(epochMsOf('x."spokenAt"'))}, 'score', 0
      ) ORDER BY x."spokenAt" DESC, x.id DESC), '[]')::text AS rows
    FROM (SELECT x.* FROM recent m CROSS JOIN LATERAL (
            SELECT id, "meetingId", "user", text, "spokenAt" FROM "Message" c
            WHERE c."meetingId" = m.id AND NOT c.encrypted ORDER BY c."spokenAt" DESC, c.id DESC LIMIT ${limit}) x
          ORDER BY x."spokenAt" DESC, x.id DESC LIMIT ${limit}) x
    JOIN recent m ON m.id = x."meetingId"`;
  return found(JSON.parse(row?.rows ?? '[]') as FoundLine[]);
}
