import { useCallback, type ReactNode } from 'react';
import { citationTimesLabel } from '@mbox/shared/citations';
import { formatMeetingDuration, formatMessageTime } from '@mbox/shared/format';
import type { SharedLine, SharedMeeting as SharedMeetingData, SharedSummary } from '@mbox/shared/share';
import { httpStatusOf } from '../../lib/errors';
import { trpc } from '../../lib/trpc';
import { Logo } from '../layout/logo';
import { ParticipantBadges } from '../meetings/participant-badges';
import { SpeakerAvatar } from '../meetings/transcript/speaker-avatar';
import { SummaryHtml } from '../summary/summary-html';

/** Consecutive lines of one speaker, shown under one name like the app's transcript. */
interface Run {
  speaker: string;
  lines: SharedLine[];
}

function speakerRuns(lines: readonly SharedLine[]): Run[] {
  const runs: Run[] = [];
  for (const line of lines) {
    const last = runs.at(-1);
    if (last && last.speaker === line.speaker) last.lines.push(line);
    else runs.push({ speaker: line.speaker, lines: [line] });
  }
  return runs;
}

const dateFormat: Intl.DateTimeFormatOptions = { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit' };

/**
 * The read-only page a share link opens (/shared/<token>), signed in or not: title, date, duration and
 * participants, the summaries, and the transcript. It makes one call, a read; an unknown or revoked
 * link shows `notFound`.
 */
export function SharedMeeting({ token, notFound }: { token: string; notFound: ReactNode }) {
  // Silent: the page says what went wrong itself (not found, or try again).
  const view = trpc.share.view.useQuery({ token }, { meta: { silent: true } });

  if (view.isPending) {
    return (
      <SharedFrame>
        <div className="flex flex-1 items-center justify-center py-24" role="status" aria-label="Loading shared meeting">
          <span className="loading loading-dots loading-lg text-primary" />
        </div>
      </SharedFrame>
    );
  }
  if (view.isError) {
    const status = httpStatusOf(view.error);
    if (status === 404 || status === 400) return notFound;
    return (
      <SharedFrame>
        <div role="alert" className="alert alert-error alert-soft mx-auto my-16 max-w-md">
          <span>
            {status === 429 ? 'Too many requests from your address: try again in a minute.' : 'The meeting could not be loaded. Try again later.'}
          </span>
        </div>
      </SharedFrame>
    );
  }
  return (
    <SharedFrame>
      <SharedMeetingView meeting={view.data} />
    </SharedFrame>
  );
}

/** The page around a shared meeting: the product's header, marked read-only, and a small footer. */
function SharedFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-full flex-col bg-base-200">
      <meta name="robots" content="noindex, nofollow" />
      <meta name="referrer" content="no-referrer" />
      <header className="sticky top-0 z-20 border-b border-base-300 bg-base-100/95 backdrop-blur">
        <div className="mx-auto flex h-16 w-full max-w-4xl items-center gap-3 px-4 sm:px-6">
          <Logo to="/public" />
          <span className="badge badge-ghost badge-sm ml-auto">Read-only</span>
        </div>
      </header>
      <main className="mx-auto flex w-full max-w-4xl flex-1 flex-col gap-4 px-3 py-4 sm:gap-6 sm:px-6 sm:py-8">{children}</main>
      <footer className="border-t border-base-300 py-5 text-center text-sm text-base-content/70">
        Shared from{' '}
        <a href="/public" className="link link-hover font-medium">
          Mbox
        </a>
      </footer>
    </div>
  );
}

function SharedMeetingView({ meeting }: { meeting: SharedMeetingData }) {
  const duration = formatMeetingDuration(meeting.date, meeting.finishedAt);
  return (
    <>
      <title>{`${meeting.title} · Mbox`}</title>
      <section className="card border border-base-300 bg-base-100 shadow-sm" aria-labelledby="shared-title" data-testid="shared-header">
        <div className="card-body gap-2 p-4 sm:p-6">
          <h1 id="shared-title" className="text-2xl font-bold leading-tight break-words">
            {meeting.title}
          </h1>
          <p className="flex flex-wrap items-center gap-x-2 text-sm text-base-content/70">
            <time dateTime={new Date(meeting.date).toISOString()}>{new Date(meeting.date).toLocaleString('en-US', dateFormat)}</time>
            {meeting.finishedAt === null ? (
              <span className="font-medium text-error">In progress</span>
            ) : (
              duration && <span data-testid="shared-duration">{duration}</span>
            )}
            <span aria-hidden="true">·</span>
            <span>{meeting.lines.length.toLocaleString('en-US')} lines</span>
          </p>
          {meeting.participants.length > 0 && (
            <div className="mt-1">
              <ParticipantBadges users={meeting.participants} />
            </div>
          )}
        </div>
      </section>

      {meeting.summaries.map((summary, index) => (
        <section key={index} className="card border border-base-300 bg-base-100 shadow-sm" aria-label={summary.title} data-testid="shared-summary">
          <div className="card-body gap-2 p-4 sm:p-6">
            <h2 className="text-lg font-semibold">{summary.title}</h2>
            {/* Sanitised by the server on the way out, as the app's summaries are. */}
            <SharedSummaryText summary={summary} />
          </div>
        </section>
      ))}

      <section className="card border border-base-300 bg-base-100 shadow-sm" aria-labelledby="shared-transcript">
        <div className="card-body gap-1 p-2 sm:p-4">
          <h2 id="shared-transcript" className="px-2 pt-2 text-lg font-semibold sm:px-2">
            Transcript
          </h2>
          {meeting.lines.length === 0 ? (
            <p className="px-2 py-6 text-center text-base-content/70">No transcript lines.</p>
          ) : (
            <ol className="flex flex-col" data-testid="shared-transcript">
              {speakerRuns(meeting.lines).map((run, index) => (
                <SpeakerRun key={index} run={run} />
              ))}
            </ol>
          )}
        </div>
      </section>
    </>
  );
}

/** A shared summary: its citations as the times of their lines ("[10:42 AM]"), as the transcript below shows them. */
function SharedSummaryText({ summary }: { summary: SharedSummary }) {
  const renderCitation = useCallback(
    (numbers: number[], key: string) => {
      const label = citationTimesLabel(numbers, summary.citations, (spokenAt) => formatMessageTime(spokenAt));
      return label && (
        <sup key={key} className="ml-0.5 text-[0.7rem] text-base-content/70" data-testid="shared-citation">
          {label}
        </sup>
      );
    },
    [summary.citations],
  );
  return <SummaryHtml html={summary.html} renderCitation={renderCitation} />;
}

/** One speaker's run; off-screen runs skip layout and paint (content-visibility), so 5,000 lines stay quick. */
function SpeakerRun({ run }: { run: Run }) {
  const first = run.lines[0]!;
  return (
    <li className="flex gap-3 rounded-lg px-2 py-2 [contain-intrinsic-size:auto_5rem] [content-visibility:auto]">
      <SpeakerAvatar name={run.speaker} url="" />
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline gap-2">
          <span className="truncate text-sm font-semibold">{run.speaker}</span>
          <time className="shrink-0 text-xs text-base-content/70" dateTime={new Date(first.spokenAt).toISOString()}>
            {formatMessageTime(first.spokenAt)}
          </time>
        </div>
        {run.lines.map((line, index) => (
          <p
            key={index}
            className="mt-0.5 whitespace-pre-wrap break-words text-[15px] leading-relaxed"
            title={index > 0 ? formatMessageTime(line.spokenAt) : undefined}
            data-testid="shared-line"
          >
            {line.text}
          </p>
        ))}
      </div>
    </li>
  );
}
