import { useMemo } from 'react';
import { MEETING_LIST_GROUPED_LIMIT, type Meeting } from '@mbox/shared/meeting';
import { groupByDay, type DayGroup } from '@mbox/shared/days';
import { trpc } from '../../lib/trpc';

/** Spec §7: the grouped view asks for up to 1000 meetings. */
export const GROUPED_LIST_INPUT = { limit: MEETING_LIST_GROUPED_LIMIT };

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export interface MeetingsState {
  status: 'loading' | 'error' | 'ready';
  groups: DayGroup<Meeting>[];
}

/**
 * The meeting list grouped by day in the browser's timezone (what the user calls "today"), kept
 * current by the server's meeting events.
 */
export function useMeetings(openMeetingId: string | undefined): MeetingsState {
  const utils = trpc.useUtils();
  const list = trpc.meeting.list.useQuery(GROUPED_LIST_INPUT);

  trpc.meeting.onChanged.useSubscription(undefined, {
    onData: (event) => {
      void utils.meeting.list.invalidate();
      if (event.meetingId === openMeetingId && event.kind !== 'deleted') {
        void utils.meeting.get.invalidate({ id: event.meetingId });
      }
    },
    onError: (error) => console.warn('[mbox] meeting events stopped', error),
  });

  const groups = useMemo(
    () => (list.data ? groupByDay(list.data, (m) => m.date, browserTimeZone()) : []),
    [list.data],
  );
  return { status: list.isPending ? 'loading' : list.isError ? 'error' : 'ready', groups };
}

/** Deletes a meeting; on success it leaves the cached list at once (spec §4). */
export function useDeleteMeeting(onDeleted: (id: string) => void) {
  const utils = trpc.useUtils();
  return trpc.meeting.delete.useMutation({
    // Spec §8: no user-visible error for a failed deletion.
    meta: { silent: true },
    onSuccess: (_result, { id }) => {
      utils.meeting.list.setData(GROUPED_LIST_INPUT, (old) => old?.filter((m) => m.key !== id));
      onDeleted(id);
    },
  });
}
