import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { CITATION_MARKER, MAX_ASK_QUESTION_LENGTH, type AskCitation } from '@mbox/shared/ask';
import { formatMessageTime } from '@mbox/shared/format';
import { engineLabel } from '@mbox/shared/generation';
import { MIN_QUESTION_LENGTH } from '@mbox/shared/ui-messages';
import { useSession } from '../../lib/session';
import { trpc } from '../../lib/trpc';
import { AiUsageNote, useRefreshAiUsage } from '../ai-usage/ai-usage-note';
import { lineLink } from '../meetings/line-link';
import { UpgradeCard } from '../premium/upgrade-card';
import { askQuestion, isAnswering, useChat, type ChatTurn } from './ask-store';

/** First questions offered on an empty chat. */
export const SUGGESTED_QUESTIONS = ['What has been decided so far?', 'Who promised to do what?', 'Which questions are still open?'];

/**
 * "Ask about this meeting": questions answered from the transcript so far, streamed, with the lines
 * relied on as chips that open them in the transcript. `onCitation` runs after such a jump (a phone
 * switches to its transcript tab).
 */
export function AskPanel({ meetingId, onCitation }: { meetingId: string; onCitation?: () => void }) {
  const turns = useChat(meetingId);
  const utils = trpc.useUtils();
  const refreshUsage = useRefreshAiUsage();
  const navigate = useNavigate();
  const [question, setQuestion] = useState('');
  const answering = isAnswering(turns);
  const tooShort = question.trim().length < MIN_QUESTION_LENGTH;
  const bottom = useRef<HTMLDivElement>(null);

  const last = turns.at(-1);
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [turns.length, last?.answer, last?.status]);

  const send = (text: string) => {
    const trimmed = text.trim();
    if (trimmed.length < MIN_QUESTION_LENGTH || answering) return;
    askQuestion((input, handlers) => utils.client.ask.stream.subscribe(input, handlers), meetingId, trimmed, refreshUsage);
    setQuestion('');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(question);
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
              <Turn key={turn.id} turn={turn} onCitation={openLine} />
            ))}
          </ol>
        )}
        <div ref={bottom} />
      </div>
      <footer className="border-t border-base-300 px-4 py-3">
        <form className="flex gap-2" onSubmit={submit}>
          <input
            type="text"
            className="input input-sm min-w-0 flex-1"
            placeholder="Ask about this meeting…"
            aria-label="Your question"
            value={question}
            maxLength={MAX_ASK_QUESTION_LENGTH}
            onChange={(e) => setQuestion(e.target.value)}
          />
          <button
            type="submit"
            className="btn btn-primary btn-sm"
            disabled={tooShort || answering}
            title={tooShort ? `Questions need at least ${MIN_QUESTION_LENGTH} characters` : undefined}
          >
            Send
          </button>
        </form>
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

function Turn({ turn, onCitation }: { turn: ChatTurn; onCitation: (citation: AskCitation) => void }) {
  const { premium } = useSession();
  const byNumber = new Map(turn.citations.map((c) => [c.n, c]));
  return (
    <li data-testid="ask-turn">
      <div className="chat chat-end">
        <div className="chat-bubble chat-bubble-primary text-sm" data-testid="ask-question">
          {turn.question}
        </div>
      </div>
      <div className="chat chat-start">
        <div className="chat-bubble w-full max-w-[95%] bg-base-200 text-sm text-base-content" data-testid="ask-answer" aria-busy={turn.status === 'streaming'}>
          {turn.answer === '' && turn.status === 'streaming' ? (
            <span className="loading loading-dots loading-sm" role="status" aria-label="Writing the answer" />
          ) : (
            <p className="whitespace-pre-wrap leading-relaxed" data-testid="ask-answer-text">
              <AnswerText text={turn.answer} citations={byNumber} onCitation={onCitation} />
              {turn.status === 'streaming' && (
                <span className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-primary align-text-bottom" aria-hidden="true" />
              )}
            </p>
          )}
          {turn.failure && (
            <p role="alert" className={`${turn.answer ? 'mt-2 ' : ''}text-error`} data-testid="ask-failure">
              {turn.failure.message}
            </p>
          )}
          {turn.engine && (
            <p className="mt-1 text-xs text-base-content/60" data-testid="ask-engine">
              Answered by {engineLabel(turn.engine)}
            </p>
          )}
          {turn.citations.length > 0 && (
            <ul className="mt-2 flex flex-wrap gap-1" aria-label="Cited lines">
              {turn.citations.map((c) => (
                <li key={c.n}>
                  <CitationChip citation={c} onClick={() => onCitation(c)} />
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      {turn.failure?.dailyLimit && !premium && <UpgradeCard compact className="mt-1" />}
    </li>
  );
}

/** "Bob · 03:02 PM"; the whole line is its tooltip. */
function CitationChip({ citation, onClick }: { citation: AskCitation; onClick: () => void }) {
  return (
    <button
      type="button"
      className="badge badge-outline badge-sm h-auto max-w-full cursor-pointer gap-1 py-0.5 hover:badge-primary"
      title={citation.text}
      onClick={onClick}
      data-testid="ask-citation"
    >
      <span className="font-semibold">{citation.n}</span>
      <span className="truncate">
        {citation.speaker} · {formatMessageTime(citation.spokenAt)}
      </span>
    </button>
  );
}

/** The answer with each `[n]` it cites as a link to the line; unknown numbers stay text. */
function AnswerText({
  text,
  citations,
  onCitation,
}: {
  text: string;
  citations: Map<number, AskCitation>;
  onCitation: (citation: AskCitation) => void;
}) {
  const out: ReactNode[] = [];
  let from = 0;
  for (const match of text.matchAll(CITATION_MARKER)) {
    const numbers = match[1]!.split(',').map((n) => Number(n.trim()));
    if (!numbers.every((n) => citations.has(n))) continue;
    out.push(text.slice(from, match.index));
    for (const n of numbers) {
      const citation = citations.get(n)!;
      out.push(
        <button
          key={`${match.index}-${n}`}
          type="button"
          className="mx-0.5 inline-flex h-4 min-w-4 cursor-pointer items-center justify-center rounded bg-primary/15 px-1 align-text-top text-[0.65rem] font-semibold text-primary hover:bg-primary hover:text-primary-content"
          title={`${citation.speaker} · ${formatMessageTime(citation.spokenAt)}: ${citation.text}`}
          aria-label={`Line ${n}: ${citation.speaker}, ${formatMessageTime(citation.spokenAt)}`}
          onClick={() => onCitation(citation)}
        >
          {n}
        </button>,
      );
    }
    from = match.index + match[0].length;
  }
  out.push(text.slice(from));
  return <>{out}</>;
}
