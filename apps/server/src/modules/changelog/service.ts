import { changelogSchema, type ChangelogEntry } from '@mbox/shared';
import entries from './changelog.json' with { type: 'json' };

/** Release history, newest first; the file is validated once, when the server loads it. */
export const CHANGELOG: readonly ChangelogEntry[] = changelogSchema.parse(entries);

export function listChangelog(): ChangelogEntry[] {
  return [...CHANGELOG];
}
