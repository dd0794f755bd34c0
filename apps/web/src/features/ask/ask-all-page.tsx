import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { MAX_ASK_QUESTION_LENGTH, type AskAllCitation, type AskAllScope } from '@mbox/shared/ask';
import { formatMessageTime } from '@mbox/shared/format';
import { trpc } from '../../lib/trpc';
import { AiUsageNote, useRefreshAiUsage } from '../ai-usage/ai-usage-note';
import { lineLink } from '../meetings/line-link';
import { isAskNow } from './ask-all-link';
import { AskIcon } from './ask-icon';
import { ALL_MEETINGS, allMeetingsChat, isAnswering } from './ask-store';
import { Turn, type CitationLabels } from './chat-turn';
import { isAskable, QuestionForm } from './question-form';

/** First questions offered on an empty page. */
export const SUGGESTED_ALL_QUESTIONS = [
  'What did we decide last week?',
  'What did we promise customers last month?',
  'Which questions are still open since Monday?',
];

/** "Oct 12, 10:02 AM": the day of the meeting and the time of the line. */
function lineMoment(c: AskAllCitation): string {
  const day = new Date(c.meetingDate).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
  return `${day}, ${formatMessageTime(c.spokenAt)}`;
}

/** A line of one of the meetings: "Pricing review · Oct 12, 10:02 AM". */
const MEETING_LINE_LABELS: CitationLabels<AskAllCitation> = {
  chip: (c) => `${c.meetingTitle} · ${lineMoment(c)}`,
  describe: (c) => `${c.meetingTitle}, ${lineMoment(c)}, ${c.speaker}`,
};

/** What a question searched: the period applied, the meetings, the encrypted ones left out. */
function ScopeNote({ scope }: { scope: AskAllScope }) {
  return (
    <p className="mb-2 flex flex-wrap gap-1 text-xs" data-testid="ask-scope">
      <span className="badge badge-ghost badge-sm h-auto py-0.5" data-testid="ask-scope-range">
        {scope.range ? `${scope.range.label}${scope.range.said ? ` · “${scope.range.said}”` : ''}` : 'All meetings'}
      </span>
      <span className="badge badge-ghost badge-sm">{scope.meetings === 1 ? '1 meeting' : `${scope.meetings} meetings`} searched</span>
      {scope.encryptedMeetings > 0 && (
        <span className="badge badge-ghost badge-sm" data-testid="ask-scope-encrypted">
          {scope.encryptedMeetings} encrypted left out
        </span>
      )}
    </p>
  );
}

/**
 * /ask: a question about all of the user's meetings, answered from their transcripts with the lines
 * relied on (docs/ask.md, "Ask all meetings"). A date phrase restricts the meetings searched. `?q=`
 * fills the field in; the search page's button asks it at once.
 */
export function AskAllPage() {
  const turns = allMeetingsChat.useChat(ALL_MEETINGS);
  const utils = trpc.useUtils();
  const refreshUsage = useRefreshAiUsage();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [question, setQuestion] = useState(() => (params.get('q') ?? '').slice(0, MAX_ASK_QUESTION_LENGTH));
  const answering = isAnswering(turns);
  const bottom = useRef<HTMLDivElement>(null);

  const last = turns.at(-1);
  useEffect(() => {
    if (turns.length > 0) bottom.current?.scrollIntoView({ block: 'end' });
  }, [turns.length, last?.answer, last?.status]);

  const send = (text: string) => {
    const trimmed = text.trim();
    if (!isAskable(trimmed) || answering) return;
    allMeetingsChat.askQuestion(
      (_history, handlers) => utils.client.ask.allStream.subscribe({ question: trimmed }, handlers),
      ALL_MEETINGS,
      trimmed,
      refreshUsage,
    );
    setQuestion('');
  };

  // The search page's button asks at once; the state is dropped so a reload does not ask again.
  const askNow = isAskNow(location.state);
  useEffect(() => {
    if (!askNow) return;
    send(question);
    navigate({ pathname: location.pathname }, { replace: true, state: null });
  }, [askNow]);

  const openLine = (citation: AskAllCitation) => navigate(lineLink(citation.meetingId, citation.messageId));

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col p-4 sm:p-6" data-testid="ask-all-page">
      <h1 className="mb-1 flex items-center gap-2 text-3xl font-bold">
        <AskIcon className="size-7 text-primary" />
        Ask all meetings
      </h1>
      <p className="mb-4 text-sm text-base-content/70">
        Answers come from the transcripts of all your meetings, with the lines they rely on. Name a period (“last month”, “in
        October”, “since Monday”) to search only its meetings. Encrypted meetings are left out.
      </p>
      <QuestionForm
        question={question}
        onChange={setQuestion}
        onSend={send}
        answering={answering}
        placeholder="What did we decide about pricing last month?"
        label="Your question about all meetings"
        submitLabel="Ask"
        autoFocus
      />
      <AiUsageNote className="mt-1" />
      <section
        className={`mt-4 ${turns.length > 0 ? 'rounded-box border border-base-300 bg-base-100 p-2 sm:p-4' : ''}`}
        aria-label="Answers"
        aria-live="polite"
        data-testid="ask-chat"
      >
        {turns.length === 0 ? (
          <ul className="flex flex-wrap gap-2" aria-label="Suggested questions">
            {SUGGESTED_ALL_QUESTIONS.map((q) => (
              <li key={q}>
                <button type="button" className="btn btn-outline btn-sm h-auto min-h-8 py-1 font-normal" onClick={() => send(q)}>
                  {q}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <ol className="flex flex-col gap-1">
            {turns.map((turn) => (
              <Turn
                key={turn.id}
                turn={turn}
                labels={MEETING_LINE_LABELS}
                onCitation={openLine}
                header={turn.scope && <ScopeNote scope={turn.scope} />}
              />
            ))}
          </ol>
        )}
        <div ref={bottom} />
      </section>
    </div>
  );
}
