import { useId } from 'react';
import { Link } from 'react-router';
import { ACTION_ITEM_STATUSES, type ActionItem, type ActionItemMeeting } from '@mbox/shared/action-items';
import { UNTITLED_MEETING } from '@mbox/shared/meeting';
import { trpc } from '../../lib/trpc';
import { ActionItemRow } from './action-item-row';
import { isFiltered, useActionItemFilters, useActionItemList, type ActionItemFilters } from './use-action-items';

const STATUS_LABELS: Record<(typeof ACTION_ITEM_STATUSES)[number], string> = { open: 'Open', done: 'Done' };

const meetingDate = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

function meetingLabel(meeting: ActionItemMeeting): string {
  return `${meeting.title || UNTITLED_MEETING} (${meetingDate.format(meeting.startedAt)})`;
}

/** Items grouped by meeting, in the list's order (newest meeting first). */
function byMeeting(items: readonly ActionItem[]): { meeting: ActionItemMeeting; items: ActionItem[] }[] {
  const groups: { meeting: ActionItemMeeting; items: ActionItem[] }[] = [];
  for (const item of items) {
    const last = groups.at(-1);
    if (last?.meeting.id === item.meeting.id) last.items.push(item);
    else groups.push({ meeting: item.meeting, items: [item] });
  }
  return groups;
}

function Filters({ filters, onChange, onClear }: { filters: ActionItemFilters; onChange: (next: Partial<ActionItemFilters>) => void; onClear: () => void }) {
  const id = useId();
  const facets = trpc.actionItems.facets.useQuery(undefined, { staleTime: 30_000 });
  const owners = facets.data?.owners ?? [];
  const meetings = facets.data?.meetings ?? [];
  return (
    <form
      className="mb-4 grid grid-cols-2 gap-2 md:grid-cols-[1fr_auto_1.4fr_auto_auto_auto] md:items-end"
      aria-label="Filter action items"
      onSubmit={(e) => e.preventDefault()}
    >
      <div className="form-control">
        <label className="label-text text-sm" htmlFor={`${id}-owner`}>
          Owner
        </label>
        <select id={`${id}-owner`} className="select select-sm w-full" value={filters.owner} onChange={(e) => onChange({ owner: e.target.value })}>
          <option value="">Everyone</option>
          {/* A filter from the address that the facets no longer hold still shows. */}
          {[...new Set([...owners, ...(filters.owner ? [filters.owner] : [])])].map((owner) => (
            <option key={owner} value={owner}>
              {owner}
            </option>
          ))}
        </select>
      </div>
      <div className="form-control">
        <label className="label-text text-sm" htmlFor={`${id}-status`}>
          Status
        </label>
        <select
          id={`${id}-status`}
          className="select select-sm w-full"
          value={filters.status || 'all'}
          onChange={(e) => onChange({ status: e.target.value === 'all' ? '' : (e.target.value as ActionItemFilters['status']) })}
        >
          {ACTION_ITEM_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
          <option value="all">All</option>
        </select>
      </div>
      <div className="form-control col-span-2 md:col-span-1">
        <label className="label-text text-sm" htmlFor={`${id}-meeting`}>
          Meeting
        </label>
        <select id={`${id}-meeting`} className="select select-sm w-full" value={filters.meetingId} onChange={(e) => onChange({ meetingId: e.target.value })}>
          <option value="">All meetings</option>
          {meetings.map((meeting) => (
            <option key={meeting.id} value={meeting.id}>
              {meetingLabel(meeting)}
            </option>
          ))}
          {filters.meetingId && !meetings.some((m) => m.id === filters.meetingId) && <option value={filters.meetingId}>This meeting</option>}
        </select>
      </div>
      <div className="form-control">
        <label className="label-text text-sm" htmlFor={`${id}-from`}>
          Due from
        </label>
        <input id={`${id}-from`} type="date" className="input input-sm w-full" value={filters.dueFrom} onChange={(e) => onChange({ dueFrom: e.target.value })} />
      </div>
      <div className="form-control">
        <label className="label-text text-sm" htmlFor={`${id}-to`}>
          Due until
        </label>
        <input id={`${id}-to`} type="date" className="input input-sm w-full" value={filters.dueTo} onChange={(e) => onChange({ dueTo: e.target.value })} />
      </div>
      <button type="button" className="btn btn-ghost btn-sm col-span-2 md:col-span-1" onClick={onClear} disabled={!isFiltered(filters)}>
        Clear filters
      </button>
    </form>
  );
}

function EmptyState({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  if (filtered) {
    return (
      <div className="flex flex-col items-center gap-2 p-10 text-center" data-testid="action-items-empty">
        <h2 className="text-lg font-semibold">No action items match these filters</h2>
        <button type="button" className="btn btn-sm" onClick={onClear}>
          Clear filters
        </button>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-center gap-2 p-10 text-center" data-testid="action-items-empty">
      <h2 className="text-lg font-semibold">No open action items</h2>
      <p className="max-w-md text-base-content/70">
        When a meeting ends, Mbox reads the tasks it assigned (who does what, by when) and lists them here. Tick them off
        as they get done.
      </p>
      <Link to="/" className="btn btn-primary btn-sm">
        Your meetings
      </Link>
    </div>
  );
}

/** /action-items: every meeting's action items in one list, filtered, ticked off and edited in place (docs/action-items.md). */
export function ActionItemsPage() {
  const [filters, setFilters, clearFilters] = useActionItemFilters();
  const list = useActionItemList(filters);
  const facets = trpc.actionItems.facets.useQuery(undefined, { staleTime: 30_000 });
  const { items } = list;

  return (
    <div className="mx-auto w-full max-w-4xl p-4 sm:p-6">
      <h1 className="mb-4 text-2xl font-bold sm:text-3xl">Action items</h1>
      <Filters filters={filters} onChange={setFilters} onClear={clearFilters} />
      {list.isPending ? (
        <div className="flex justify-center p-10" role="status" aria-label="Loading action items">
          <span className="loading loading-dots loading-lg text-primary" />
        </div>
      ) : list.isError ? (
        // The failure itself was shown by the app's one error mapping (a toast).
        <p className="p-6 text-center text-base-content/70">The action items could not be loaded. Try again.</p>
      ) : items.length === 0 ? (
        <EmptyState filtered={isFiltered(filters)} onClear={clearFilters} />
      ) : (
        <div className="flex flex-col gap-4" data-testid="action-items">
          {byMeeting(items).map((group) => (
            <section key={group.meeting.id} className="card border border-base-300 bg-base-100" aria-label={meetingLabel(group.meeting)}>
              <div className="card-body gap-1 p-3 sm:p-4">
                <h2 className="min-w-0 truncate px-2 text-lg font-semibold">
                  <Link to={`/${encodeURIComponent(group.meeting.id)}`} className="link-hover">
                    {group.meeting.title || UNTITLED_MEETING}
                  </Link>{' '}
                  <span className="text-sm font-normal text-base-content/70">{meetingDate.format(group.meeting.startedAt)}</span>
                </h2>
                <ul className="flex flex-col">
                  {group.items.map((item) => (
                    <ActionItemRow key={item.id} item={item} owners={facets.data?.owners ?? []} />
                  ))}
                </ul>
              </div>
            </section>
          ))}
          {(list.showMore || list.loadingMore) && (
            <button type="button" className="btn btn-outline self-center" onClick={() => list.showMore?.()} disabled={list.loadingMore}>
              {list.loadingMore ? 'Loading…' : 'Show more'}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
