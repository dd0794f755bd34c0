/** Badges shown per meeting before the rest collapse into '+N' (product.md, Limits). */
export const MAX_PARTICIPANT_BADGES = 5;
/** Longest name shown on a badge before it is cut and '...' added (product.md, Limits). */
export const MAX_BADGE_NAME_LENGTH = 20;

/** Participant names once each, in first-seen order, blanks dropped (product.md, Data: deduplicated for display). */
export function uniqueParticipants(names: readonly string[]): string[] {
  return [...new Set(names.map((name) => name.trim()).filter(Boolean))];
}

/** A name cut at 20 characters with '...' added; shorter names are unchanged. */
export function truncateBadgeName(name: string, max: number = MAX_BADGE_NAME_LENGTH): string {
  const chars = Array.from(name);
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : name;
}

export interface ParticipantBadges {
  /** Truncated names of the first badges. */
  shown: string[];
  /** Full names collapsed into the '+N' badge (its tooltip). */
  hidden: string[];
  /** '+N', or null when every participant has a badge. */
  more: string | null;
}

export function participantBadges(names: readonly string[], max: number = MAX_PARTICIPANT_BADGES): ParticipantBadges {
  const unique = uniqueParticipants(names);
  const hidden = unique.slice(max);
  return {
    shown: unique.slice(0, max).map((name) => truncateBadgeName(name)),
    hidden,
    more: hidden.length > 0 ? `+${hidden.length}` : null,
  };
}
