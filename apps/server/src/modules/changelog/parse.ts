import { marked, type Token, type Tokens } from 'marked';
import { CHANGE_TYPES, changelogSchema, changeTypeSchema, type Change, type ChangelogEntry } from '@mbox/shared';

/** CHANGELOG.md does not follow its format; the message names the place and what is expected. */
export class ChangelogFormatError extends Error {
  override name = 'ChangelogFormatError';
}

export interface ParsedChangelog {
  /** Changes under `## [Unreleased]`, or null when the file has no such section. */
  unreleased: Change[] | null;
  /** Released versions, newest first. */
  releases: ChangelogEntry[];
}

const RELEASE_HEADING = /^\[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/;
const UNRELEASED_HEADING = '[Unreleased]';

const compareVersions = (a: string, b: string) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  return x.reduce((order, part, i) => order || part - (y[i] ?? 0), 0);
};

/** One change: `**Type** description`, then optionally a nested list of sub-changes. */
function parseItem(item: Tokens.ListItem, where: string): Change {
  const [line, nested, ...rest] = item.tokens.filter((token) => token.type !== 'space');
  const inline = line && (line.type === 'text' || line.type === 'paragraph') ? ((line as Tokens.Text).tokens ?? []) : [];
  const [typeToken, ...descriptionTokens] = inline;
  const quoted = JSON.stringify(item.text.split('\n')[0]);
  if (typeToken?.type !== 'strong') {
    throw new ChangelogFormatError(`${where}: the change ${quoted} must start with its type in bold (${CHANGE_TYPES.map((t) => `**${t}**`).join(', ')})`);
  }
  const type = changeTypeSchema.safeParse((typeToken as Tokens.Strong).text);
  if (!type.success) {
    throw new ChangelogFormatError(`${where}: unknown change type in ${quoted}: expected ${CHANGE_TYPES.join(', ')}`);
  }
  const description = descriptionTokens
    .map((token) => ('text' in token && typeof token.text === 'string' ? token.text : token.raw))
    .join('')
    .trim();
  if (!description) throw new ChangelogFormatError(`${where}: the change ${quoted} has no description`);
  if (rest.length > 0 || (nested && nested.type !== 'list')) {
    throw new ChangelogFormatError(`${where}: the change ${quoted} may hold only one line and a list of sub-changes`);
  }
  const subChanges = nested ? parseList(nested as Tokens.List, `${where} › ${description}`) : undefined;
  return { type: type.data, description, ...(subChanges ? { subChanges } : {}) };
}

function parseList(list: Tokens.List, where: string): Change[] {
  if (list.ordered) throw new ChangelogFormatError(`${where}: changes are a bulleted list (- ...), not a numbered one`);
  return list.items.map((item) => parseItem(item, where));
}

/** The changes of one section: exactly one bulleted list. */
function parseSection(tokens: Token[], where: string): Change[] {
  const content = tokens.filter((token) => token.type !== 'space');
  if (content.length !== 1 || content[0]?.type !== 'list') {
    const found = content.map((token) => token.type).join(', ') || 'nothing';
    throw new ChangelogFormatError(`${where}: expected one bulleted list of changes, found ${found}`);
  }
  return parseList(content[0] as Tokens.List, where);
}

/**
 * Reads CHANGELOG.md (marked's lexer, then the file's rules): anything before the first `##` heading
 * is free text; then `## [Unreleased]` (optional, first) and `## [x.y.z] - yyyy-mm-dd` releases, newest
 * first, each holding one bulleted list of typed changes. Throws ChangelogFormatError on anything else.
 */
export function parseChangelog(markdown: string): ParsedChangelog {
  const sections: { heading: string; tokens: Token[] }[] = [];
  for (const token of marked.lexer(markdown)) {
    const depth = token.type === 'heading' ? (token as Tokens.Heading).depth : null;
    if (depth === 2) sections.push({ heading: (token as Tokens.Heading).text.trim(), tokens: [] });
    else if (depth === 1 && sections.length > 0) throw new ChangelogFormatError('CHANGELOG.md: the # title comes once, before the versions');
    else if (sections.length > 0) sections.at(-1)!.tokens.push(token);
  }

  let unreleased: Change[] | null = null;
  const releases: ChangelogEntry[] = [];
  sections.forEach(({ heading, tokens }, index) => {
    const where = `CHANGELOG.md ## ${heading}`;
    if (heading === UNRELEASED_HEADING) {
      if (index !== 0) throw new ChangelogFormatError(`${where}: [Unreleased] must be the first section`);
      unreleased = parseSection(tokens, where);
      return;
    }
    const match = RELEASE_HEADING.exec(heading);
    if (!match) throw new ChangelogFormatError(`${where}: a release heading reads "## [x.y.z] - yyyy-mm-dd" (or "## [Unreleased]")`);
    const [, version, date] = match as unknown as [string, string, string];
    const newer = releases.at(-1);
    if (newer && compareVersions(newer.version, version) <= 0) {
      throw new ChangelogFormatError(`${where}: versions go newest first, each once (${version} comes after ${newer.version})`);
    }
    if (newer && newer.date < date) throw new ChangelogFormatError(`${where}: dated after the newer ${newer.version} (${newer.date})`);
    releases.push({ version, date, changes: parseSection(tokens, where) });
  });
  if (releases.length === 0) throw new ChangelogFormatError('CHANGELOG.md: no release (## [x.y.z] - yyyy-mm-dd) found');

  const checked = changelogSchema.safeParse(releases);
  if (!checked.success) {
    const problem = checked.error.issues[0]!;
    throw new ChangelogFormatError(`CHANGELOG.md: ${problem.path.join('.')}: ${problem.message}`);
  }
  return { unreleased, releases: checked.data };
}
