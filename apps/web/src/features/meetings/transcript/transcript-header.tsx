import type { ReactNode } from 'react';
import { formatMeetingDuration } from '@mbox/shared/format';
import type { Meeting } from '@mbox/shared/meeting';
import { ParticipantBadges } from '../participant-badges';

/** product.md, Screens / Limits: title, participant badges, 'for N minutes' (or Live while it runs), line counts. */
export function TranscriptHeader({
  meet,
  participants,
  status,
  actions,
}: {
  meet: Meeting;
  participants: readonly string[];
  status: ReactNode;
  actions: ReactNode;
}) {
  const duration = formatMeetingDuration(meet.date, meet.finishedAt);
  const started = new Date(meet.date).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  return (
    <header className="border-b border-base-300 px-4 py-3" data-testid="transcript-header">
      {/* The actions move under the title when the panel is too narrow for both, still at the right edge
          (their menus open leftwards from there). */}
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
        <div className="min-w-56 flex-1">
          <h2 className="truncate text-lg font-semibold leading-tight" title={meet.title}>
            {meet.title}
          </h2>
          <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs text-base-content/70">
            <span>{started}</span>
            {meet.finishedAt === null ? (
              <span className="inline-flex items-center gap-1 font-medium text-error">
                <span className="size-1.5 animate-pulse rounded-full bg-error" />
                Live
              </span>
            ) : (
              duration && <span data-testid="meeting-duration">{duration}</span>
            )}
            <span aria-hidden="true">·</span>
            {status}
          </p>
        </div>
        <div className="ml-auto flex shrink-0 items-center gap-2">{actions}</div>
      </div>
      {participants.length > 0 && (
        <div className="mt-2">
          <ParticipantBadges users={participants} />
        </div>
      )}
    </header>
  );
}
