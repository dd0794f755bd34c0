import type { Message } from '@mbox/shared/meeting';

/** A transcript line as the API returns it. */
export function line(key: string, user: string, text: string, spokenAt: number, lastUpdated = spokenAt): Message {
  return {
    key,
    captionId: key,
    user,
    userAvatar: '',
    text,
    aiFixed: null,
    marks: [],
    comment: '',
    encrypted: false,
    final: true,
    spokenAt,
    lastUpdated,
  };
}
