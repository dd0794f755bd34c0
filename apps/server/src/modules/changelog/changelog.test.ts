import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Change } from '@mbox/shared';
import { ChangelogFormatError, parseChangelog, type ParsedChangelog } from './parse.js';
import { CHANGELOG, CHANGELOG_PATH } from './service.js';

const file = readFileSync(CHANGELOG_PATH, 'utf8');
const serverVersion = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The sections of a parsed changelog written back in the file's own format. */
function render({ unreleased, releases }: ParsedChangelog): string {
  const changes = (list: Change[], indent = ''): string =>
    list.map((c) => `${indent}- **${c.type}** ${c.description}\n${c.subChanges ? changes(c.subChanges, `${indent}  `) : ''}`).join('');
  const sections = [
    ...(unreleased ? [`## [Unreleased]\n\n${changes(unreleased)}`] : []),
    ...releases.map((r) => `## [${r.version}] - ${r.date}\n\n${changes(r.changes)}`),
  ];
  return sections.join('\n');
}

const release = (body: string, heading = '## [1.0.0] - 2026-01-01') => `# Changelog\n\nIntro.\n\n${heading}\n\n${body}\n`;
const failure = (markdown: string) => {
  try {
    parseChangelog(markdown);
  } catch (error) {
    expect(error).toBeInstanceOf(ChangelogFormatError);
    return (error as Error).message;
  }
  throw new Error('expected the changelog to be refused');
};

describe('CHANGELOG.md', () => {
  it('round-trips: the parsed entries written back give the file, from its first version on', () => {
    const parsed = parseChangelog(file);
    expect(render(parsed)).toBe(file.slice(file.indexOf('\n## ') + 1));
    expect(parsed.unreleased?.length).toBeGreaterThan(0);
  });

  it('serves the releases, newest first, the newest being the server version, starting at 0.1.0', () => {
    expect(CHANGELOG[0]?.version).toBe(serverVersion);
    expect(CHANGELOG.at(-1)).toMatchObject({ version: '0.1.0', date: '2026-11-22' });
    expect(CHANGELOG[0]?.changes.some((change) => change.subChanges?.length)).toBe(true);
  });
});

describe('parseChangelog', () => {
  it('reads typed, nested changes with inline code and links as text', () => {
    const parsed = parseChangelog(
      release('- **New** A `GET /v1/x` call\n  - **Fix** See [the docs](https://example.com)\n    - **Improvement** Deeper\n- **Improvement** Two'),
    );
    expect(parsed).toEqual({
      unreleased: null,
      releases: [
        {
          version: '1.0.0',
          date: '2026-01-01',
          changes: [
            {
              type: 'New',
              description: 'A GET /v1/x call',
              subChanges: [{ type: 'Fix', description: 'See the docs', subChanges: [{ type: 'Improvement', description: 'Deeper' }] }],
            },
            { type: 'Improvement', description: 'Two' },
          ],
        },
      ],
    });
  });

  it('fails loudly, naming the place, on a malformed file', () => {
    expect(failure(release('- **Feature** Something'))).toMatch(/## \[1\.0\.0\] - 2026-01-01: unknown change type in "\*\*Feature\*\* Something": expected New, Improvement, Fix/);
    expect(failure(release('- Something without a type'))).toMatch(/must start with its type in bold/);
    expect(failure(release('- **New**'))).toMatch(/has no description/);
    expect(failure(release('1. **New** Numbered'))).toMatch(/bulleted list/);
    expect(failure(release('Some prose.\n\n- **New** X'))).toMatch(/expected one bulleted list of changes, found paragraph, list/);
    expect(failure(release('- **New** X', '## 1.0.0 (2026-01-01)'))).toMatch(/a release heading reads "## \[x\.y\.z\] - yyyy-mm-dd"/);
    expect(failure(release('- **New** X', '## [1.0.0] - 2026-13-45'))).toMatch(/date/i);
    expect(failure(release('- **New** X', '## [1.0.0] - 2026-01-01\n\n- **New** Y\n\n## [1.0.0] - 2025-12-01'))).toMatch(/newest first, each once/);
    expect(failure(release('- **New** X', '## [0.9.0] - 2025-01-01\n\n- **New** Y\n\n## [1.0.0] - 2026-01-01'))).toMatch(/newest first/);
    expect(failure(release('- **New** X', '## [1.0.0] - 2025-01-01\n\n- **New** Y\n\n## [0.9.0] - 2026-01-01'))).toMatch(/dated after the newer 1\.0\.0/);
    expect(failure(release('- **New** X', '## [1.0.0] - 2026-01-01\n\n- **New** Y\n\n## [Unreleased]'))).toMatch(/\[Unreleased\] must be the first section/);
    expect(failure(release('', '## [Unreleased]'))).toMatch(/\[Unreleased\]: expected one bulleted list of changes, found nothing/);
    expect(failure(release('- **New** X', '## [Unreleased]'))).toMatch(/no release/);
    expect(failure('# Changelog\n\nNothing yet.\n')).toMatch(/no release/);
    expect(failure(release('- **New** X\n\n  Second paragraph.'))).toMatch(/only one line and a list of sub-changes/);
  });
});
