import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { useSearchParams } from 'react-router';
import {
  ACTION_ITEM_STATUSES,
  type ActionItem,
  type ActionItemListInput,
  type ActionItemStatus,
} from '@mbox/shared/action-items';
import { isCalendarDay } from '@mbox/shared/days';
import { trpc } from '../../lib/trpc';

/** Items read per page of the ledger. */
export const ACTION_ITEMS_PAGE_SIZE = 50;

/** The ledger's filters, kept in the address (`?owner=&status=&meeting=&dueFrom=&dueTo=`) so a filtered view can be linked. */
export interface ActionItemFilters {
  owner: string;
  /** '' shows every status. */
  status: ActionItemStatus | '';
  meetingId: string;
  dueFrom: string;
  dueTo: string;
}

/** Open items unless the address says otherwise (`status=all` shows every item). */
const DEFAULT_STATUS: ActionItemStatus = 'open';

export function useActionItemFilters(): [ActionItemFilters, (next: Partial<ActionItemFilters>) => void, () => void] {
  const [params, setParams] = useSearchParams();
  const status = params.get('status');
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return isCalendarDay(value) ? value : '';
  };
  const filters: ActionItemFilters = {
    owner: params.get('owner') ?? '',
    status: status === 'all' ? '' : ACTION_ITEM_STATUSES.find((s) => s === status) ?? DEFAULT_STATUS,
    meetingId: params.get('meeting') ?? '',
    dueFrom: day('dueFrom'),
    dueTo: day('dueTo'),
  };
  const write = (next: ActionItemFilters) => {
    const entries: [string, string][] = [
      ['owner', next.owner],
      ['status', next.status === DEFAULT_STATUS ? '' : next.status || 'all'],
      ['meeting', next.meetingId],
      ['dueFrom', next.dueFrom],
      ['dueTo', next.dueTo],
    ];
    setParams(new URLSearchParams(entries.filter(([, value]) => value !== '')), { replace: true });
  };
  return [filters, (next) => write({ ...filters, ...next }), () => write({ owner: '', status: DEFAULT_STATUS, meetingId: '', dueFrom: '', dueTo: '' })];
}

/** Whether any filter narrows the list beyond the default (open items). */
export function isFiltered(filters: ActionItemFilters): boolean {
  return filters.owner !== '' || filters.status !== DEFAULT_STATUS || filters.meetingId !== '' || filters.dueFrom !== '' || filters.dueTo !== '';
}

/** The list call's input for the filters (a range given backwards is read in order). */
export function listInput(filters: ActionItemFilters): Omit<ActionItemListInput, 'cursor'> {
  const [dueFrom, dueTo] = filters.dueFrom && filters.dueTo && filters.dueFrom > filters.dueTo ? [filters.dueTo, filters.dueFrom] : [filters.dueFrom, filters.dueTo];
  return {
    limit: ACTION_ITEMS_PAGE_SIZE,
    ...(filters.owner ? { owner: filters.owner } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.meetingId ? { meetingId: filters.meetingId } : {}),
    ...(dueFrom ? { dueFrom } : {}),
    ...(dueTo ? { dueTo } : {}),
  };
}

export function useActionItemList(filters: ActionItemFilters) {
  // The previous filter's items stay on screen while the next ones load.
  return trpc.actionItems.list.useInfiniteQuery(listInput(filters), { getNextPageParam: (page) => page.nextCursor, placeholderData: keepPreviousData });
}

/** The ledger's pages as the list query caches them. */
interface ListPages {
  pages: { items: ActionItem[]; nextCursor: string | null }[];
}

/**
 * Changes an item (text, owner, due day, status). The lists it is shown in change in place, so a
 * ticked item stays where it is, struck through, until the list is read again; the filter choices
 * and "Open from last time" are read again.
 */
export function useUpdateActionItem() {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  return trpc.actionItems.update.useMutation({
    onSuccess: (item) => {
      queryClient.setQueriesData<ListPages>({ queryKey: getQueryKey(trpc.actionItems.list) }, (data) =>
        data && { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map((i) => (i.id === item.id ? item : i)) })) },
      );
      void utils.actionItems.facets.invalidate();
      void utils.actionItems.fromLastTime.invalidate();
    },
  });
}
