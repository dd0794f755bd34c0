import { Link } from 'react-router';
import { UNTITLED_MEETING } from '@mbox/shared/meeting';
import { trpc } from '../../lib/trpc';
import { ActionItemRow } from './action-item-row';

const meetingDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

/**
 * "Open from last time" on a meeting's screen: the items still open from the last meeting with the
 * same Meet code or the same people (docs/action-items.md); nothing when there are none.
 */
export function OpenFromLastTime({ meetingId }: { meetingId: string }) {
  const lastTime = trpc.actionItems.fromLastTime.useQuery({ meetingId }, { staleTime: 30_000, meta: { silent: true } });
  const earlier = lastTime.data?.meeting;
  const items = lastTime.data?.items ?? [];
  if (!earlier || items.length === 0) return null;
  return (
    <details className="collapse collapse-arrow shrink-0 rounded-none border-b border-base-300" open data-testid="open-from-last-time">
      <summary className="collapse-title min-h-0 py-2 text-sm font-semibold">Open from last time ({items.length})</summary>
      <div className="collapse-content max-h-64 overflow-y-auto text-sm">
        <p className="mb-1 text-base-content/70">
          From{' '}
          <Link to={`/${encodeURIComponent(earlier.id)}`} className="link">
            {earlier.title || UNTITLED_MEETING}
          </Link>{' '}
          ({meetingDate.format(earlier.startedAt)})
        </p>
        <ul className="flex flex-col">
          {items.map((item) => (
            <ActionItemRow key={item.id} item={item} />
          ))}
        </ul>
      </div>
    </details>
  );
}
