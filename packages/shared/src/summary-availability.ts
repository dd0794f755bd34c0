/** A meeting can be summarised once it has this many messages… (docs/product.md, Validation) */
export const MIN_SUMMARY_MESSAGES = 5;
/** …from at least this many different speakers. */
export const MIN_SUMMARY_SPEAKERS = 2;

/** The alert of product.md, Errors, with both thresholds spelled out. */
export const SUMMARY_UNAVAILABLE_MESSAGE = `To analyze the meeting and generate a summary the meeting should contain at least ${MIN_SUMMARY_MESSAGES} replica from ${MIN_SUMMARY_SPEAKERS} different participations`;

/** True when a meeting's messages are enough to summarise it. */
export function canSummarize(messages: readonly { user: string }[]): boolean {
  if (messages.length < MIN_SUMMARY_MESSAGES) return false;
  return enoughToSummarize(messages.length, new Set(messages.map((m) => m.user)).size);
}

/** The same rule from counts, for messages read a page at a time: `speakers` need only be counted up to the minimum. */
export function enoughToSummarize(messages: number, speakers: number): boolean {
  return messages >= MIN_SUMMARY_MESSAGES && speakers >= MIN_SUMMARY_SPEAKERS;
}
