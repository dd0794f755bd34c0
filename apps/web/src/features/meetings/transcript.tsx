import type { Message } from '@mbox/shared/meeting';
import { formatMessageTime } from '@mbox/shared/format';
import { useEffect, useRef } from 'react';
import { groupBySpeaker } from './merge-lines';
import { useLiveTranscript } from './use-live-transcript';

const NO_ID_TEXT = 'NO ID here will be display you meeting';
const MISSING_TEXT = 'here will be display you meeting';

function TranscriptPlaceholder({ text }: { text: string }) {
  return (
    <div className="flex h-full flex-col items-center justify-center gap-2 p-6 text-center" data-testid="transcript-placeholder">
      <h2 className="text-xl font-semibold">Transcription</h2>
      <p className="text-base-content/60">{text}</p>
    </div>
  );
}

/** Spec §2 transcription panel: placeholders, loading dots, or the live chat of a meeting. */
export function TranscriptPanel({ meetingId }: { meetingId: string | undefined }) {
  if (!meetingId) return <TranscriptPlaceholder text={NO_ID_TEXT} />;
  // Keyed by id so live state never leaks from one meeting into another.
  return <LiveTranscript key={meetingId} meetingId={meetingId} />;
}

function LiveTranscript({ meetingId }: { meetingId: string }) {
  const state = useLiveTranscript(meetingId);
  if (state.status === 'loading') {
    return (
      <div className="flex h-full items-center justify-center" role="status" aria-label="Loading transcript">
        <span className="loading loading-dots loading-lg text-primary" />
      </div>
    );
  }
  if (state.status === 'missing') return <TranscriptPlaceholder text={MISSING_TEXT} />;
  return (
    <div className="flex h-full flex-col">
      <div className="border-b border-base-300 px-4 py-3">
        <h2 className="truncate text-lg font-semibold" title={state.meet.title}>
          {state.meet.title}
        </h2>
        <p className="text-xs text-base-content/60">Transcription</p>
      </div>
      {state.messages.length === 0 ? (
        <p className="p-6 text-center text-base-content/60">{MISSING_TEXT}</p>
      ) : (
        <ChatLog messages={state.messages} />
      )}
    </div>
  );
}

export function ChatLog({ messages }: { messages: readonly Message[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const pinnedToBottom = useRef(true);

  // Follow new lines like a chat, unless the reader scrolled up to read earlier ones.
  useEffect(() => {
    const el = scroller.current;
    if (el && pinnedToBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages]);

  return (
    <div
      ref={scroller}
      className="min-h-0 flex-1 overflow-y-auto px-4 py-3"
      data-testid="transcript"
      aria-live="polite"
      onScroll={(e) => {
        const el = e.currentTarget;
        pinnedToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      }}
    >
      {groupBySpeaker(messages).map((run) => (
        <section key={run.key} className="mb-3" data-testid="speaker-run" data-speaker={run.speaker}>
          {run.lines.map((line, index) => (
            <div
              key={line.key}
              className="chat chat-start"
              data-testid="transcript-message"
              data-speaker={line.user}
              data-key={line.key}
            >
              <div className="chat-image avatar">
                {index === 0 ? <SpeakerAvatar name={run.speaker} url={run.avatar} /> : <div className="w-9" />}
              </div>
              {index === 0 && (
                <div className="chat-header">
                  <span className="font-semibold">{line.user}</span>
                  <time className="ml-2 text-xs opacity-60" dateTime={new Date(line.spokenAt).toISOString()}>
                    {formatMessageTime(line.spokenAt)}
                  </time>
                </div>
              )}
              <div
                className={`chat-bubble bg-base-200 text-base-content ${line.final ? '' : 'opacity-80'}`}
                data-testid="message-text"
              >
                {line.text}
              </div>
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const picked = parts.length > 1 ? [parts[0], parts.at(-1)] : parts;
  return picked.map((p) => (p ?? '').charAt(0).toUpperCase()).join('') || '?';
}

function SpeakerAvatar({ name, url }: { name: string; url: string }) {
  if (url) {
    return (
      <div className="w-9 rounded-full">
        <img src={url} alt={name} referrerPolicy="no-referrer" />
      </div>
    );
  }
  return (
    <div className="avatar avatar-placeholder">
      <div className="w-9 rounded-full bg-neutral text-neutral-content">
        <span className="text-xs">{initials(name)}</span>
      </div>
    </div>
  );
}
