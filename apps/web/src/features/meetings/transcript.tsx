import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { MARKS, type Mark, type Message } from '@mbox/shared/meeting';
import {
  EMPTY_MESSAGE_FILTER,
  isFilterActive,
  messageMatchesFilter,
  speakerOptions,
  type MessageFilter,
} from '@mbox/shared/message-filter';
import { useSession } from '../../lib/session';
import { UpgradeCard } from '../premium/upgrade-card';
import { ChatLog, type RowHandlers, type TranscriptFocus } from './transcript/chat-log';
import type { TextView } from './transcript/message-row';
import { TranscriptFilter } from './transcript/transcript-filter';
import { MeetingActions } from './meeting-actions';
import { TranscriptHeader } from './transcript/transcript-header';
import { useMessageActions } from './transcript/use-message-actions';
import { useLiveTranscript } from './use-live-transcript';

const NO_ID_TEXT = 'NO ID here will be display you meeting';
const MISSING_TEXT = 'here will be display you meeting';

function TranscriptPlaceholder({ text }: { text: string }) {
  return (
    <div className="flex h-full flex-col items-center justify-center gap-2 p-6 text-center" data-testid="transcript-placeholder">
      <h2 className="text-xl font-semibold">Transcription</h2>
      <p className="text-base-content/70">{text}</p>
    </div>
  );
}

/** product.md, Screens transcription panel: placeholders, loading dots, or the live chat of a meeting. */
export function TranscriptPanel({ meetingId }: { meetingId: string | undefined }) {
  if (!meetingId) return <TranscriptPlaceholder text={NO_ID_TEXT} />;
  // Keyed by id so live state, filters and edits never leak from one meeting into another.
  return <LiveTranscript key={meetingId} meetingId={meetingId} />;
}

function markCounts(messages: readonly Message[]): Record<Mark, number> {
  const counts = Object.fromEntries(MARKS.map((m) => [m, 0])) as Record<Mark, number>;
  for (const m of messages) {
    for (const mark of MARKS) {
      if (messageMatchesFilter(m, { speakers: [], marks: [mark] })) counts[mark] += 1;
    }
  }
  return counts;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * `?line=<messageId>`: the line a link opens at (a search result, a cited line). Each navigation is a
 * new request, so following the same link again scrolls to the line again.
 */
function useFocusedLine(): TranscriptFocus | null {
  const [params] = useSearchParams();
  const location = useLocation();
  const line = params.get('line');
  return useMemo(() => (line ? { key: line, request: location.key } : null), [line, location.key]);
}

function LiveTranscript({ meetingId }: { meetingId: string }) {
  const focus = useFocusedLine();
  const state = useLiveTranscript(meetingId, focus?.key ?? null);
  const { premium } = useSession();
  const actions = useMessageActions(meetingId);
  const [filter, setFilter] = useState<MessageFilter>(EMPTY_MESSAGE_FILTER);
  const [views, setViews] = useState<Record<string, TextView>>({});
  const [editingKey, setEditingKey] = useState<string | null>(null);
  const upgradeDialog = useRef<HTMLDialogElement>(null);
  // A line opened by link must not be hidden by a filter set before.
  useEffect(() => {
    if (focus) setFilter(EMPTY_MESSAGE_FILTER);
  }, [focus]);

  const messages = state.status === 'ready' ? state.messages : [];
  const gaps = state.status === 'ready' ? state.gaps : [];
  const speakers = useMemo(() => speakerOptions(messages), [messages]);
  const counts = useMemo(() => markCounts(messages), [messages]);
  const shown = useMemo(
    () => (isFilterActive(filter) ? messages.filter((m) => messageMatchesFilter(m, filter)) : messages),
    [messages, filter],
  );

  const { optimize, toggleMark, saveComment } = actions;
  const handlers = useMemo<RowHandlers>(
    () => ({
      onToggleMark: toggleMark,
      onSaveComment: saveComment,
      onEdit: setEditingKey,
      onView: (key, view) => setViews((all) => ({ ...all, [key]: view })),
      onOptimize: (message) => {
        if (!premium) {
          upgradeDialog.current?.showModal();
          return;
        }
        // A fresh fix is shown as soon as it arrives.
        setViews((all) => ({ ...all, [message.key]: 'optimized' }));
        optimize(message);
      },
    }),
    [premium, optimize, toggleMark, saveComment],
  );
  const closeUpgrade = useCallback(() => upgradeDialog.current?.close(), []);

  if (state.status === 'loading') {
    return (
      <div className="flex h-full items-center justify-center" role="status" aria-label="Loading transcript">
        <span className="loading loading-dots loading-lg text-primary" />
      </div>
    );
  }
  if (state.status === 'missing') return <TranscriptPlaceholder text={MISSING_TEXT} />;

  const participants = state.meet.users.length ? state.meet.users : speakers.map((s) => s.user);
  const status = (
    <span data-testid="transcript-status">
      {isFilterActive(filter) ? `${count(shown.length)} of ${count(messages.length)} lines` : `${count(messages.length)} lines`}
      {state.loadingMore && (
        <span className="ml-1 inline-flex items-center gap-1 text-base-content/70">
          <span className="loading loading-spinner loading-xs" />
          loading {count(Math.max(state.total - messages.length, 0))} more
        </span>
      )}
    </span>
  );

  return (
    <div className="flex h-full flex-col">
      <TranscriptHeader
        meet={state.meet}
        participants={participants}
        status={status}
        actions={
          <>
            {messages.length > 0 && <TranscriptFilter filter={filter} onChange={setFilter} speakers={speakers} markCounts={counts} />}
            <MeetingActions meet={state.meet} />
          </>
        }
      />
      {messages.length === 0 && gaps.length === 0 ? (
        <p className="p-6 text-center text-base-content/70">{MISSING_TEXT}</p>
      ) : messages.length > 0 && shown.length === 0 ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-2 p-6 text-center text-base-content/70">
          <p>No lines match the filter.</p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setFilter(EMPTY_MESSAGE_FILTER)}>
            Clear filter
          </button>
        </div>
      ) : (
        <ChatLog
          messages={shown}
          // Gaps belong to the whole meeting, not to a speaker or a mark: a filtered view leaves them out.
          gaps={isFilterActive(filter) ? undefined : gaps}
          live={state.meet.finishedAt === null}
          views={views}
          editingKey={editingKey}
          optimizing={actions.optimizing}
          handlers={handlers}
          focus={focus}
        />
      )}
      <dialog ref={upgradeDialog} className="modal" aria-label="Premium feature">
        <div className="modal-box max-w-sm p-0">
          <UpgradeCard className="border-0" />
        </div>
        <form method="dialog" className="modal-backdrop">
          <button type="submit" onClick={closeUpgrade}>
            close
          </button>
        </form>
      </dialog>
    </div>
  );
}
