import { useMemo, useState } from 'react';
import type { Meeting, Message } from '@mbox/shared/meeting';
import { trpc } from '../../lib/trpc';
import { mergeLines } from './merge-lines';

export type TranscriptState =
  | { status: 'loading' }
  | { status: 'missing' }
  | { status: 'ready'; meet: Meeting; messages: Message[] };

/**
 * A meeting's transcript: the snapshot from meeting.get merged with the lines streamed by
 * meeting.onLines. Live lines are kept apart from the snapshot so a refetch (after a reconnect or a
 * meeting update) never drops a line that arrived meanwhile. Mount it keyed by meeting id: changing
 * the id then resets it (spec §4).
 */
export function useLiveTranscript(meetingId: string): TranscriptState {
  const utils = trpc.useUtils();
  // Spec §8: load failures are only logged and show the missing placeholder.
  const detail = trpc.meeting.get.useQuery({ id: meetingId }, { meta: { silent: true } });
  const [live, setLive] = useState<readonly Message[]>([]);

  trpc.meeting.onLines.useSubscription(
    { meetingId },
    {
      onStarted: () => {
        // (Re)connected: lines sent while we were away are only in a fresh snapshot.
        if (utils.meeting.get.getData({ id: meetingId })) void utils.meeting.get.invalidate({ id: meetingId });
      },
      onData: (line) => setLive((prev) => mergeLines(prev, [line])),
      onError: (error) => console.warn('[mbox] live transcript stopped', error),
    },
  );

  const messages = useMemo(
    () => (detail.data ? mergeLines(detail.data.messages, live) : []),
    [detail.data, live],
  );

  if (detail.isPending) return { status: 'loading' };
  if (detail.isError || !detail.data) return { status: 'missing' };
  return { status: 'ready', meet: detail.data.meet, messages };
}
