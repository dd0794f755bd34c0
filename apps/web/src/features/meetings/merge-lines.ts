import type { Message } from '@mbox/shared/meeting';

/** Transcript order: by the time a line was spoken, then by key so equal times stay stable. */
export function compareLines(a: Message, b: Message): number {
  return a.spokenAt - b.spokenAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

function isNewer(line: Message, existing: Message): boolean {
  return line.lastUpdated >= existing.lastUpdated;
}

/**
 * One live line into a long transcript without rebuilding it: live lines land at or near the end,
 * so the search runs from the end. Returns null when the general merge is needed.
 */
function mergeOne(current: readonly Message[], line: Message): Message[] | null {
  for (let i = current.length - 1; i >= 0 && i >= current.length - 200; i -= 1) {
    const existing = current[i]!;
    if (existing.key === line.key) {
      if (!isNewer(line, existing)) return [...current];
      if (existing.spokenAt !== line.spokenAt) return null;
      const copy = current.slice();
      copy[i] = line;
      return copy;
    }
  }
  const last = current.at(-1);
  if (!last || compareLines(last, line) < 0) {
    // Not among the last lines; appending is only right if the key is not elsewhere.
    if (current.length > 200 && current.some((m) => m.key === line.key)) return null;
    return [...current, line];
  }
  return null;
}

/**
 * Merges live lines into a transcript: a new key is inserted, a known key replaced — unless the
 * incoming copy is older (a late snapshot must not undo a newer live rewrite). Returns a new array in
 * transcript order; the input arrays are not changed.
 */
export function mergeLines(current: readonly Message[], incoming: readonly Message[]): Message[] {
  if (incoming.length === 0) return [...current];
  if (incoming.length === 1) {
    const fast = mergeOne(current, incoming[0]!);
    if (fast) return fast;
  }
  const byKey = new Map<string, Message>();
  for (const line of current) byKey.set(line.key, line);
  for (const line of incoming) {
    const existing = byKey.get(line.key);
    if (!existing || isNewer(line, existing)) byKey.set(line.key, line);
  }
  return [...byKey.values()].sort(compareLines);
}

/** Whether line `index` opens a run of one speaker's consecutive lines (a chat shows its header then). */
export function startsSpeakerRun(lines: readonly Pick<Message, 'user'>[], index: number): boolean {
  return index === 0 || lines[index - 1]?.user !== lines[index]?.user;
}
