import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { AskCitation } from '@mbox/shared/ask';
import { formatMessageTime } from '@mbox/shared/format';
import { trpc } from '../../lib/trpc';
import { AiUsageNote, useRefreshAiUsage } from '../ai-usage/ai-usage-note';
import { lineLink } from '../meetings/line-link';
import { isAnswering, meetingChats } from './ask-store';
import { Turn, type CitationLabels } from './chat-turn';
import { isAskable, QuestionForm } from './question-form';

/** First questions offered on an empty chat. */
export const SUGGESTED_QUESTIONS = ['What has been decided so far?', 'Who promised to do what?', 'Which questions are still open?'];

/** A line of this meeting: "Bob · 03:02 PM". */
const LINE_LABELS: CitationLabels<AskCitation> = {
  chip: (c) => `${c.speaker} · ${formatMessageTime(c.spokenAt)}`,
  describe: (c) => `${c.speaker}, ${formatMessageTime(c.spokenAt)}`,
};

/**
 * "Ask about this meeting": questions answered from the transcript so far, streamed, with the lines
 * relied on as chips that open them in the transcript. `onCitation` runs after such a jump (a phone
 * switches to its transcript tab).
 */
export function AskPanel({ meetingId, onCitation }: { meetingId: string; onCitation?: () => void }) {
  const turns = meetingChats.useChat(meetingId);
  const utils = trpc.useUtils();
  const refreshUsage = useRefreshAiUsage();
  const navigate = useNavigate();
  const [question, setQuestion] = useState('');
  const answering = isAnswering(turns);
  const bottom = useRef<HTMLDivElement>(null);

  const last = turns.at(-1);
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [turns.length, last?.answer, last?.status]);

  const send = (text: string) => {
    const trimmed = text.trim();
    if (!isAskable(trimmed) || answering) return;
    meetingChats.askQuestion(
      (history, handlers) => utils.client.ask.stream.subscribe({ meetingId, question: trimmed, history }, handlers),
      meetingId,
      trimmed,
      refreshUsage,
    );
    setQuestion('');
  };
  const openLine = (citation: AskCitation) => {
    navigate(lineLink(meetingId, citation.messageId));
    onCitation?.();
  };

  return (
    <section className="flex h-full min-w-0 flex-col bg-base-100" aria-label="Ask about this meeting" data-testid="ask-panel">
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4" aria-live="polite" data-testid="ask-chat">
        {turns.length === 0 ? (
          <EmptyChat onPick={send} />
        ) : (
          <ol className="flex flex-col gap-1">
            {turns.map((turn) => (
              <Turn key={turn.id} turn={turn} labels={LINE_LABELS} onCitation={openLine} />
            ))}
          </ol>
        )}
        <div ref={bottom} />
      </div>
      <footer className="border-t border-base-300 px-4 py-3">
        <QuestionForm
          question={question}
          onChange={setQuestion}
          onSend={send}
          answering={answering}
          placeholder="Ask about this meeting…"
          label="Your question"
          submitLabel="Send"
          small
        />
        <AiUsageNote className="mt-1" />
      </footer>
    </section>
  );
}

function EmptyChat({ onPick }: { onPick: (question: string) => void }) {
  return (
    <div className="flex h-full flex-col items-center justify-center gap-4 px-2 py-6 text-center">
      <div>
        <p className="font-medium">Ask about this meeting</p>
        <p className="text-sm text-base-content/70">Answers come from the transcript so far, with the lines they rely on.</p>
      </div>
      <ul className="flex flex-wrap justify-center gap-2" aria-label="Suggested questions">
        {SUGGESTED_QUESTIONS.map((q) => (
          <li key={q}>
            <button type="button" className="btn btn-outline btn-xs h-auto min-h-7 py-1 font-normal" onClick={() => onPick(q)}>
              {q}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
