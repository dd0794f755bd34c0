import type { Mark, Message } from './meeting.js';

/** What the transcript filter has chosen (product.md, Data: speaker filter items are user + avatar). */
export interface MessageFilter {
  speakers: readonly string[];
  marks: readonly Mark[];
}

export const EMPTY_MESSAGE_FILTER: MessageFilter = { speakers: [], marks: [] };

export function isFilterActive(filter: MessageFilter): boolean {
  return filter.speakers.length > 0 || filter.marks.length > 0;
}

/**
 * product.md, Validation: a message shows if its speaker or a mark matches; the chosen mark 'commented' also
 * matches messages with a comment. The choices are OR-ed, never AND-ed: picking Ana and 'important'
 * shows all of Ana's lines plus everyone's important ones.
 * An empty selection (nothing chosen) is no filter: every message shows. A reader who clears the
 * filter expects the whole transcript back, not an empty panel.
 */
export function messageMatchesFilter(
  message: Pick<Message, 'user' | 'marks' | 'comment'>,
  filter: MessageFilter,
): boolean {
  if (!isFilterActive(filter)) return true;
  if (filter.speakers.includes(message.user)) return true;
  if (filter.marks.some((mark) => message.marks.includes(mark))) return true;
  return filter.marks.includes('commented') && message.comment.trim() !== '';
}

export interface SpeakerOption {
  user: string;
  avatar: string;
  /** Lines spoken, for the count beside the name. */
  count: number;
}

/** The speakers of a transcript in order of first appearance, each with the first avatar seen. */
export function speakerOptions(messages: readonly Pick<Message, 'user' | 'userAvatar'>[]): SpeakerOption[] {
  const byUser = new Map<string, SpeakerOption>();
  for (const message of messages) {
    const option = byUser.get(message.user);
    if (!option) byUser.set(message.user, { user: message.user, avatar: message.userAvatar, count: 1 });
    else {
      option.count += 1;
      if (!option.avatar && message.userAvatar) option.avatar = message.userAvatar;
    }
  }
  return [...byUser.values()];
}
