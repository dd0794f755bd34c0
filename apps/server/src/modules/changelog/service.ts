import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangelogEntry } from '@mbox/shared';
import { repoRoot } from '../../db/paths.js';
import { parseChangelog } from './parse.js';

/** The project's changelog, kept true with every change; its header describes the format. */
export const CHANGELOG_PATH = join(repoRoot, 'CHANGELOG.md');

/**
 * Released versions, newest first. Read and checked once, when the server loads: a malformed
 * CHANGELOG.md stops the start with a message naming the problem.
 */
export const CHANGELOG: readonly ChangelogEntry[] = parseChangelog(readFileSync(CHANGELOG_PATH, 'utf8')).releases;

export function listChangelog(): ChangelogEntry[] {
  return [...CHANGELOG];
}
