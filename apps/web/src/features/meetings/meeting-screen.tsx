import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { useNavigate } from 'react-router';
import { SummaryPanel } from '../summary/summary-panel';
import { MeetingList } from './meeting-list';
import { TranscriptPanel } from './transcript';
import { useDeleteMeeting, useMeetings } from './use-meetings';

/** Spec §2: the layout is saved under an auto-save id (debounced 100 ms by the library default). */
export const MEETING_LAYOUT_ID = 'mbox-meeting-layout';

function layoutStorage(): Storage | undefined {
  try {
    return localStorage;
  } catch {
    return undefined;
  }
}

function ResizeHandle() {
  return (
    <Separator className="group flex w-2 items-center justify-center bg-base-200 outline-none hover:bg-primary/20 focus-visible:bg-primary/30">
      <div className="h-10 w-1 rounded-full bg-base-300 group-hover:bg-primary" />
    </Separator>
  );
}

/** Spec §2 meeting screen: 'Last meetings' beside the dashboard (no id) or transcript + summary (id). */
export function MeetingScreen({ meetingId }: { meetingId: string | undefined }) {
  const navigate = useNavigate();
  const meetings = useMeetings(meetingId);
  const remove = useDeleteMeeting((id) => {
    if (id === meetingId) navigate('/', { replace: true });
  });

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
          <h2 className="border-b border-base-300 px-4 py-3 text-lg font-semibold">Last meetings</h2>
          <div className="min-h-0 flex-1 overflow-y-auto p-3">
            <MeetingList
              status={meetings.status}
              groups={meetings.groups}
              selectedId={meetingId}
              deletingId={remove.isPending ? (remove.variables?.id ?? null) : null}
              onDelete={(id) => remove.mutate({ id })}
            />
          </div>
        </div>
      </Panel>
      <ResizeHandle />
      {meetingId ? (
        <>
          <Panel id="transcript" minSize="25%" defaultSize="40%">
            <div className="h-full bg-base-100">
              <TranscriptPanel meetingId={meetingId} />
            </div>
          </Panel>
          <ResizeHandle />
          <Panel id="summary" defaultSize="30%" minSize="25%">
            <SummaryPanel meetingId={meetingId} />
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

/** The statistics area; its figures arrive with the dashboard work (stats.dashboard). */
function DashboardPanel() {
  return (
    <div className="flex h-full flex-col bg-base-100">
      <h2 className="border-b border-base-300 px-4 py-3 text-lg font-semibold">Dashboard</h2>
      <div className="flex flex-1 items-center justify-center" role="status" aria-label="Loading statistics">
        <span className="loading loading-dots loading-lg text-primary" />
      </div>
    </div>
  );
}
