import type { Message } from '@mbox/shared/meeting';

/** Transcript order: by the time a line was spoken, then by key so equal times stay stable. */
export function compareLines(a: Message, b: Message): number {
  return a.spokenAt - b.spokenAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/**
 * Merges live lines into a transcript: a new key is inserted, a known key replaced — unless the
 * incoming copy is older (a late snapshot must not undo a newer live rewrite). Returns a new array in
 * transcript order; the input arrays are not changed.
 */
export function mergeLines(current: readonly Message[], incoming: readonly Message[]): Message[] {
  if (incoming.length === 0) return [...current];
  const byKey = new Map<string, Message>();
  for (const line of current) byKey.set(line.key, line);
  for (const line of incoming) {
    const existing = byKey.get(line.key);
    if (!existing || line.lastUpdated >= existing.lastUpdated) byKey.set(line.key, line);
  }
  return [...byKey.values()].sort(compareLines);
}

export interface SpeakerRun {
  /** Key of the run's first line (stable while lines are appended). */
  key: string;
  speaker: string;
  avatar: string;
  lines: Message[];
}

/** Groups consecutive lines of one speaker, as a chat shows them. */
export function groupBySpeaker(lines: readonly Message[]): SpeakerRun[] {
  const runs: SpeakerRun[] = [];
  for (const line of lines) {
    const last = runs.at(-1);
    if (last && last.speaker === line.user) {
      last.lines.push(line);
      if (!last.avatar && line.userAvatar) last.avatar = line.userAvatar;
    } else {
      runs.push({ key: line.key, speaker: line.user, avatar: line.userAvatar, lines: [line] });
    }
  }
  return runs;
}
