import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { MEETING_LIST_GROUPED_LIMIT, type MeetingGroups } from '@mbox/shared/meeting';
import { settleRunningFetch } from '../../lib/running-fetch';
import { trpc } from '../../lib/trpc';

/** product.md, API: the grouped view asks for up to 1000 meetings. */
export const GROUPED_LIST_INPUT = { limit: MEETING_LIST_GROUPED_LIMIT };

export type MeetingGroup = MeetingGroups['groups'][number];

export interface MeetingsState {
  status: 'loading' | 'error' | 'ready';
  groups: MeetingGroup[];
}

/** The meeting list grouped by day (by the server, in the user's timezone), kept current by meeting events. */
export function useMeetings(): MeetingsState {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const list = trpc.meeting.grouped.useQuery(GROUPED_LIST_INPUT);

  trpc.meeting.onChanged.useSubscription(undefined, {
    // Events sent before the stream was (re)connected never arrive: the list is read again once it is,
    // after any read still running (which may have begun before the stream listened) has answered.
    onStarted: () => {
      const key = getQueryKey(trpc.meeting.grouped, GROUPED_LIST_INPUT, 'query');
      void settleRunningFetch(queryClient, key).then(() => utils.meeting.grouped.invalidate(GROUPED_LIST_INPUT));
    },
    onData: () => {
      // The open transcript reads its title and finish time from this list; its lines come over meeting.onLines.
      void utils.meeting.grouped.invalidate();
    },
    onError: (error) => console.warn('[mbox] meeting events stopped', error),
  });

  return { status: list.isPending ? 'loading' : list.isError ? 'error' : 'ready', groups: list.data?.groups ?? [] };
}

/** Deletes a meeting; on success it leaves the cached list at once (product.md, States). */
export function useDeleteMeeting(onDeleted: (id: string) => void) {
  const utils = trpc.useUtils();
  return trpc.meeting.delete.useMutation({
    // product.md, Errors: no user-visible error for a failed deletion.
    meta: { silent: true },
    onSuccess: (_result, { id }) => {
      utils.meeting.grouped.setData(GROUPED_LIST_INPUT, (old) => old && withoutMeeting(old, id));
      onDeleted(id);
    },
  });
}

/** The groups without one meeting; a day left empty disappears. */
export function withoutMeeting(data: MeetingGroups, id: string): MeetingGroups {
  return {
    groups: data.groups
      .map((group) => ({ ...group, meetings: group.meetings.filter((m) => m.key !== id) }))
      .filter((group) => group.meetings.length > 0),
  };
}
