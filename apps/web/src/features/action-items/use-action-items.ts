import { keepPreviousData, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { useState } from 'react';
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

/**
 * The ledger's pages for the filters: the first, then one more for each "Show more" (each page is read
 * with the cursor the one before returned). Other filters start again from the first page.
 */
export function useActionItemList(filters: ActionItemFilters) {
  const input = listInput(filters);
  const key = JSON.stringify(input);
  const [more, setMore] = useState<{ key: string; cursors: string[] }>({ key, cursors: [] });
  const cursors = more.key === key ? more.cursors : [];
  const pages = trpc.useQueries((t) =>
    // The previous filter's items stay on screen while the next ones load.
    [undefined, ...cursors].map((cursor) => t.actionItems.list({ ...input, ...(cursor ? { cursor } : {}) }, { placeholderData: keepPreviousData })),
  );
  // A placeholder is the previous filter's page: its cursor is not one of these.
  const last = pages.at(-1)?.isPlaceholderData ? undefined : pages.at(-1)?.data;
  return {
    items: pages.flatMap((page) => page.data?.items ?? []),
    isPending: pages[0]!.isPending,
    isError: pages[0]!.isError,
    loadingMore: pages.length > 1 && pages.at(-1)!.isPending,
    showMore: last?.nextCursor ? () => setMore({ key, cursors: [...cursors, last.nextCursor!] }) : null,
  };
}

/** The cached answers that hold items: the ledger's pages and "Open from last time". */
function updateCachedItems(queryClient: QueryClient, id: string, change: (item: ActionItem) => ActionItem): void {
  for (const procedure of [trpc.actionItems.list, trpc.actionItems.fromLastTime]) {
    queryClient.setQueriesData<{ items: ActionItem[] }>({ queryKey: getQueryKey(procedure) }, (data) =>
      data && { ...data, items: data.items.map((item) => (item.id === id ? change(item) : item)) },
    );
  }
}

/**
 * Changes an item (text, owner, due day, status) where it is shown at once, then as the server
 * answers: a ticked item stays where it is, struck through, until its list is read again. A refused
 * change is undone by reading the lists again (the failure goes to the toast).
 */
export function useUpdateActionItem() {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  return trpc.actionItems.update.useMutation({
    onMutate: ({ id, status, ...patch }) =>
      updateCachedItems(queryClient, id, (item) => ({
        ...item,
        ...(patch.text !== undefined ? { text: patch.text } : {}),
        ...(patch.owner !== undefined ? { owner: patch.owner } : {}),
        ...(patch.due !== undefined ? { due: patch.due } : {}),
        ...(status ? { status, doneAt: status === 'done' ? Date.now() : null } : {}),
      })),
    onSuccess: (saved) => {
      updateCachedItems(queryClient, saved.id, () => saved);
      void utils.actionItems.facets.invalidate();
    },
    onError: () => {
      void utils.actionItems.list.invalidate();
      void utils.actionItems.fromLastTime.invalidate();
    },
  });
}
