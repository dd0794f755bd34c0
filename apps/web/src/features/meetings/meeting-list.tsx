import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { Meeting } from '@mbox/shared/meeting';
import { meetingCountLabel } from '@mbox/shared/days';
import { formatMeetingDuration, formatMessageTime } from '@mbox/shared/format';
import { MeetingsEmptyState } from './empty-state';
import { ParticipantBadges } from './participant-badges';
import type { MeetingGroup } from './use-meetings';

/** product.md, Screens: the first group is open by default, or the one holding the selected meeting. */
export function initiallyOpenDay(groups: readonly MeetingGroup[], selectedId: string | undefined): string | null {
  const holding = selectedId ? groups.find((g) => g.meetings.some((m) => m.key === selectedId)) : undefined;
  return (holding ?? groups[0])?.day ?? null;
}

interface MeetingListProps {
  status: 'loading' | 'error' | 'ready';
  groups: MeetingGroup[];
  selectedId: string | undefined;
  onDelete: (id: string) => void;
  deletingId: string | null;
}

export function MeetingList({ status, groups, selectedId, onDelete, deletingId }: MeetingListProps) {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const [seeded, setSeeded] = useState(false);

  // Open the default group once the list arrives, and the selected meeting's group when it changes.
  const selectedDay = selectedId ? groups.find((g) => g.meetings.some((m) => m.key === selectedId))?.day : undefined;
  useEffect(() => {
    if (groups.length === 0) return;
    if (!seeded) {
      const day = initiallyOpenDay(groups, selectedId);
      if (day) setOpen(new Set([day]));
      setSeeded(true);
    } else if (selectedDay) {
      setOpen((prev) => (prev.has(selectedDay) ? prev : new Set([...prev, selectedDay])));
    }
  }, [groups, seeded, selectedDay, selectedId]);

  if (status === 'loading') {
    return (
      <div className="flex flex-col gap-3 p-2" aria-busy="true" aria-label="Loading meetings">
        <div className="skeleton h-12 w-full" />
        <div className="skeleton h-20 w-full" />
        <div className="skeleton h-20 w-full" />
      </div>
    );
  }
  if (groups.length === 0) return <MeetingsEmptyState />;

  const toggle = (day: string, isOpen: boolean) =>
    setOpen((prev) => {
      if (prev.has(day) === isOpen) return prev;
      const next = new Set(prev);
      if (isOpen) next.add(day);
      else next.delete(day);
      return next;
    });

  return (
    <div className="flex flex-col gap-2">
      {groups.map((group) => (
        <details
          key={group.day}
          className="collapse collapse-arrow border border-base-300 bg-base-100"
          data-testid="meeting-group"
          data-day={group.day}
          open={open.has(group.day)}
          onToggle={(e) => toggle(group.day, e.currentTarget.open)}
        >
          <summary className="collapse-title font-semibold">
            {group.label}{' '}
            <span className="font-normal whitespace-nowrap text-base-content/70">{meetingCountLabel(group.meetings.length)}</span>
          </summary>
          <div className="collapse-content">
            <ul className="flex flex-col gap-2">
              {group.meetings.map((meeting) => (
                <MeetingItem
                  key={meeting.key}
                  meeting={meeting}
                  selected={meeting.key === selectedId}
                  deleting={deletingId === meeting.key}
                  onDelete={onDelete}
                />
              ))}
            </ul>
          </div>
        </details>
      ))}
    </div>
  );
}

function MeetingItem({
  meeting,
  selected,
  deleting,
  onDelete,
}: {
  meeting: Meeting;
  selected: boolean;
  deleting: boolean;
  onDelete: (id: string) => void;
}) {
  // Two clicks to delete: a stray click must not remove a meeting, and no native dialog blocks the page.
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    if (!confirming) return;
    const timer = setTimeout(() => setConfirming(false), 4000);
    return () => clearTimeout(timer);
  }, [confirming]);
  const duration = formatMeetingDuration(meeting.date, meeting.finishedAt);

  return (
    <li
      data-testid="meeting-item"
      data-meeting-id={meeting.key}
      aria-current={selected ? 'page' : undefined}
      className={`group relative rounded-box border p-3 transition-colors ${
        selected ? 'border-primary bg-primary/10' : 'border-base-300 hover:bg-base-200'
      }`}
    >
      <Link to={`/${encodeURIComponent(meeting.key)}`} className="block pr-10">
        <div className="truncate font-medium" title={meeting.title}>
          {meeting.title}
        </div>
        <div className="mt-1 flex flex-wrap gap-x-2 text-xs text-base-content/70">
          <time dateTime={new Date(meeting.date).toISOString()}>{formatMessageTime(meeting.date)}</time>
          {duration && <span>{duration}</span>}
        </div>
        <div className="mt-2">
          <ParticipantBadges users={meeting.users} />
        </div>
      </Link>
      <div className="absolute top-2 right-2">
        {confirming ? (
          <button
            type="button"
            className="btn btn-error btn-xs"
            disabled={deleting}
            onClick={() => onDelete(meeting.key)}
          >
            {deleting ? <span className="loading loading-spinner loading-xs" /> : 'Delete'}
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-ghost btn-xs btn-square opacity-60 hover:opacity-100"
            aria-label={`Delete meeting ${meeting.title}`}
            title="Delete meeting"
            onClick={() => setConfirming(true)}
          >
            <TrashIcon />
          </button>
        )}
      </div>
    </li>
  );
}

function TrashIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
      <path d="M3 6h18M8 6V4h8v2m-9 0 1 14h8l1-14" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
