import { lazy, Suspense, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { Link, useNavigate } from 'react-router';
import { useMediaQuery } from '../../lib/media-query';
import { trpc } from '../../lib/trpc';
import { Dashboard } from '../dashboard/dashboard';
import { TalkTimeChart } from '../dashboard/talk-time-chart';
import { MeetingsEmptyState } from './empty-state';
import { MeetingList } from './meeting-list';
import { useDeleteMeeting, useMeetings, type MeetingsState } from './use-meetings';

// '/' shows the list and the dashboard only: the panels of an open meeting are separate chunks, so
// the first load of '/' stays within the bundle budget however much they grow.
const TranscriptPanel = lazy(() => import('./transcript').then((m) => ({ default: m.TranscriptPanel })));
const SummaryPanel = lazy(() => import('../summary/summary-panel').then((m) => ({ default: m.SummaryPanel })));
const AskPanel = lazy(() => import('../ask/ask-panel').then((m) => ({ default: m.AskPanel })));
const OpenFromLastTime = lazy(() => import('../action-items/open-from-last-time').then((m) => ({ default: m.OpenFromLastTime })));

function PanelLoader() {
  return (
    <div className="flex h-full min-h-32 items-center justify-center" role="status" aria-label="Loading">
      <span className="loading loading-dots loading-lg text-primary" />
    </div>
  );
}

/** product.md, Screens: the layout is saved under an auto-save id (debounced 100 ms by the library default). */
export const MEETING_LAYOUT_ID = 'mbox-meeting-layout';

/** product.md, Limits: a separator moves by 10 % per arrow key. */
export const KEYBOARD_STEP_PERCENT = 10;
/** react-resizable-panels 4 moves a separator by a fixed 5 % per key and has no option for it. */
const LIBRARY_KEYBOARD_STEP_PERCENT = 5;
const RESIZE_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']);

/** Tailwind's `md` breakpoint: below it one panel is shown at a time. */
const SPLIT_MEDIA_QUERY = '(min-width: 768px)';

function useSplitLayout(): boolean {
  return useMediaQuery(SPLIT_MEDIA_QUERY, true);
}

function layoutStorage(): Storage | undefined {
  try {
    return localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The library has already moved the separator by its own step (its listener sits on the element, before
 * React's); repeating the key on the element moves it the rest of the way, through the library's own
 * clamping to min/max sizes and its layout saving. The repeat does not bubble, so it never comes back here.
 */
function repeatKeyboardStep(event: KeyboardEvent<HTMLDivElement>) {
  if (!RESIZE_KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
  const repeats = KEYBOARD_STEP_PERCENT / LIBRARY_KEYBOARD_STEP_PERCENT - 1;
  for (let i = 0; i < repeats; i += 1) {
    event.currentTarget.dispatchEvent(new window.KeyboardEvent('keydown', { key: event.key, bubbles: false, cancelable: true }));
  }
}

function ResizeHandle({ label }: { label: string }) {
  return (
    <Separator
      aria-label={label}
      onKeyDown={repeatKeyboardStep}
      className="group flex w-2 items-center justify-center bg-base-200 outline-none hover:bg-primary/20 focus-visible:bg-primary/30"
    >
      <div className="h-10 w-1 rounded-full bg-base-300 group-hover:bg-primary" />
    </Separator>
  );
}

function PanelTitle({ children }: { children: ReactNode }) {
  return <h2 className="border-b border-base-300 px-4 py-3 text-lg font-semibold">{children}</h2>;
}

/**
 * Whether the meeting of the address is one of the user's: at once when the list holds it, else asked
 * (meeting.exists answers false, not 404, so an unknown id costs no failed request). A failed check
 * counts as found: the panels then show their own failure, as before.
 */
function useMeetingPresence(meetingId: string | undefined, meetings: MeetingsState): 'checking' | 'found' | 'missing' {
  const listed = meetingId !== undefined && meetings.groups.some((g) => g.meetings.some((m) => m.key === meetingId));
  const check = trpc.meeting.exists.useQuery({ id: meetingId ?? '' }, { enabled: meetingId !== undefined && !listed, meta: { silent: true } });
  if (meetingId === undefined || listed) return 'found';
  if (check.isPending) return 'checking';
  return check.data?.exists === false ? 'missing' : 'found';
}

/** An address naming no meeting of the user's: one view that says so, with the way back. */
function MeetingNotFound() {
  return (
    <div className="flex h-full items-center justify-center bg-base-100 p-6" data-testid="meeting-not-found">
      <div className="flex max-w-md flex-col items-center gap-3 text-center">
        <h1 className="text-2xl font-bold">Meeting not found</h1>
        <p className="text-base-content/70">
          There is no meeting at this address in your account: it was deleted, the link is incomplete, or the meeting
          belongs to another account.
        </p>
        <Link to="/" className="btn btn-primary">
          Back to your meetings
        </Link>
      </div>
    </div>
  );
}

/** product.md, Screens meeting screen: 'Last meetings' beside the dashboard (no id) or transcript + summary (id). */
export function MeetingScreen({ meetingId }: { meetingId: string | undefined }) {
  const navigate = useNavigate();
  const meetings = useMeetings();
  const presence = useMeetingPresence(meetingId, meetings);
  const remove = useDeleteMeeting((id) => {
    if (id === meetingId) navigate('/', { replace: true });
  });
  const split = useSplitLayout();

  if (presence === 'missing') return <MeetingNotFound />;
  if (presence === 'checking') return <PanelLoader />;
  // The first run: one empty state for the whole screen, not one in the list and one in the dashboard.
  if (!meetingId && meetings.status === 'ready' && meetings.groups.length === 0) {
    return (
      <div className="flex h-full items-center justify-center overflow-y-auto bg-base-100">
        <MeetingsEmptyState />
      </div>
    );
  }

  const list = (
    <MeetingList
      status={meetings.status}
      groups={meetings.groups}
      selectedId={meetingId}
      deletingId={remove.isPending ? (remove.variables?.id ?? null) : null}
      onDelete={(id) => remove.mutate({ id })}
    />
  );

  if (!split) {
    // Keyed by id: opening a meeting from the list shows its transcript; leaving it shows the list.
    return <PhoneMeetingScreen key={meetingId ?? ''} meetingId={meetingId} list={list} />;
  }
  return <SplitMeetingScreen meetingId={meetingId} list={list} />;
}

function SplitMeetingScreen({ meetingId, list }: { meetingId: string | undefined; list: ReactNode }) {
  // Two panel sets, each with its own saved layout under the same id.
  const panelIds = meetingId ? ['meetings', 'transcript', 'summary'] : ['meetings', 'dashboard'];
  const storage = layoutStorage();
  const { defaultLayout, onLayoutChanged } = useDefaultLayout({
    id: MEETING_LAYOUT_ID,
    panelIds,
    ...(storage ? { storage } : {}),
  });

  return (
    <Group
      key={panelIds.join('|')}
      orientation="horizontal"
      defaultLayout={defaultLayout}
      onLayoutChanged={onLayoutChanged}
      className="h-full"
      id={MEETING_LAYOUT_ID}
    >
      <Panel id="meetings" defaultSize="30%" minSize="30%" maxSize="50%" className="flex flex-col">
        <div className="flex h-full flex-col bg-base-100">
          <PanelTitle>Last meetings</PanelTitle>
          <div className="min-h-0 flex-1 overflow-y-auto p-3">{list}</div>
        </div>
      </Panel>
      <ResizeHandle label="Resize meeting list" />
      {meetingId ? (
        <>
          <Panel id="transcript" minSize="25%" defaultSize="40%">
            <div className="h-full bg-base-100">
              <Suspense fallback={<PanelLoader />}>
                <TranscriptPanel meetingId={meetingId} />
              </Suspense>
            </div>
          </Panel>
          <ResizeHandle label="Resize transcript and summary" />
          <Panel id="summary" defaultSize="30%" minSize="25%">
            <SummaryColumn meetingId={meetingId} />
          </Panel>
        </>
      ) : (
        <Panel id="dashboard" minSize="20%" defaultSize="70%">
          <DashboardPanel />
        </Panel>
      )}
    </Group>
  );
}

type PhoneTab = 'meetings' | 'dashboard' | 'transcript' | 'summary' | 'ask';

/** Below `md` three columns cannot fit: one panel at a time, switched by a tab bar. */
function PhoneMeetingScreen({ meetingId, list }: { meetingId: string | undefined; list: ReactNode }) {
  const tabs: { id: PhoneTab; label: string }[] = meetingId
    ? [
        { id: 'meetings', label: 'Meetings' },
        { id: 'transcript', label: 'Transcript' },
        { id: 'summary', label: 'Summary' },
        { id: 'ask', label: 'Ask' },
      ]
    : [
        { id: 'meetings', label: 'Meetings' },
        { id: 'dashboard', label: 'Dashboard' },
      ];
  const [tab, setTab] = useState<PhoneTab>(meetingId ? 'transcript' : 'meetings');

  return (
    <div className="flex h-full flex-col bg-base-100">
      <div role="tablist" aria-label="Meeting panels" className="tabs tabs-border shrink-0 border-b border-base-300">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            aria-controls={`meeting-tab-${t.id}`}
            className={`tab flex-1 ${tab === t.id ? 'tab-active' : ''}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`meeting-tab-${tab}`} className="min-h-0 flex-1 overflow-y-auto">
        {tab === 'meetings' && <div className="p-3">{list}</div>}
        {tab === 'dashboard' && <DashboardPanel />}
        <Suspense fallback={<PanelLoader />}>
          {tab === 'transcript' && meetingId && <TranscriptPanel meetingId={meetingId} />}
          {tab === 'summary' && meetingId && (
            <SummaryColumn meetingId={meetingId} withAsk={false} onCitation={() => setTab('transcript')} />
          )}
          {/* A cited line opens in the transcript, which is another tab here. */}
          {tab === 'ask' && meetingId && <AskPanel meetingId={meetingId} onCitation={() => setTab('transcript')} />}
        </Suspense>
      </div>
    </div>
  );
}

type ColumnTab = 'summary' | 'ask';

/**
 * The summary panel with a collapsed 'Talk time' chart above it (loaded only when opened); `withAsk`
 * puts it and the 'Ask' chat under two tabs (phones give the chat a tab of their own).
 */
function SummaryColumn({
  meetingId,
  withAsk = true,
  onCitation,
}: {
  meetingId: string;
  withAsk?: boolean;
  /** Runs after a cited line was opened (a phone shows the transcript tab). */
  onCitation?: () => void;
}) {
  const [talkTimeOpen, setTalkTimeOpen] = useState(false);
  const [tab, setTab] = useState<ColumnTab>('summary');
  const shown = withAsk ? tab : 'summary';
  return (
    <div className="flex h-full flex-col bg-base-100">
      {withAsk && (
        <div role="tablist" aria-label="Summary or questions" className="tabs tabs-border shrink-0 border-b border-base-300">
          {(
            [
              { id: 'summary', label: 'Summary' },
              { id: 'ask', label: 'Ask' },
            ] as const
          ).map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={shown === t.id}
              aria-controls={`summary-column-${t.id}`}
              className={`tab flex-1 ${shown === t.id ? 'tab-active' : ''}`}
              onClick={() => setTab(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
      )}
      {shown === 'ask' ? (
        <div role="tabpanel" id="summary-column-ask" className="min-h-0 flex-1">
          <Suspense fallback={<PanelLoader />}>
            <AskPanel meetingId={meetingId} />
          </Suspense>
        </div>
      ) : (
        <div className="flex min-h-0 flex-1 flex-col" {...(withAsk ? { role: 'tabpanel', id: 'summary-column-summary' } : {})}>
          {/* Shows only when an earlier meeting of the same code or people left items open. */}
          <Suspense fallback={null}>
            <OpenFromLastTime meetingId={meetingId} />
          </Suspense>
          <details
            className="collapse collapse-arrow shrink-0 rounded-none border-b border-base-300"
            open={talkTimeOpen}
            onToggle={(e) => setTalkTimeOpen(e.currentTarget.open)}
            data-testid="talk-time-section"
          >
            <summary className="collapse-title min-h-0 py-2 text-sm font-semibold">Talk time</summary>
            <div className="collapse-content">{talkTimeOpen && <TalkTimeChart meetingId={meetingId} />}</div>
          </details>
          <div className="min-h-0 flex-1">
            <Suspense fallback={<PanelLoader />}>
              <SummaryPanel meetingId={meetingId} onCitation={onCitation} />
            </Suspense>
          </div>
        </div>
      )}
    </div>
  );
}

function DashboardPanel() {
  return (
    <div className="flex h-full flex-col bg-base-100">
      <PanelTitle>Dashboard</PanelTitle>
      <div className="min-h-0 flex-1 overflow-y-auto bg-base-200/40 p-4">
        <Dashboard />
      </div>
    </div>
  );
}
