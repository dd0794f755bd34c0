import type { ReactNode } from 'react';
import { CITATION_MARKER, type AskCitation } from '@mbox/shared/ask';
import { engineLabel } from '@mbox/shared/generation';
import { useSession } from '../../lib/session';
import { UpgradeCard } from '../premium/upgrade-card';
import type { ChatTurn } from './ask-store';

/** How a chat names a cited line: its chip's label, and a longer description for tooltips and screen readers. */
export interface CitationLabels<C extends AskCitation> {
  chip: (citation: C) => string;
  describe: (citation: C) => string;
}

/**
 * One question and its answer: the answer streamed into its bubble (dots until the first words, then a
 * caret), `[n]` as links to the lines, the engine that answered, and each cited line as a chip.
 * `header` goes above the answer's text (what a question across meetings searched).
 */
export function Turn<C extends AskCitation>({
  turn,
  labels,
  onCitation,
  header,
}: {
  turn: ChatTurn<C>;
  labels: CitationLabels<C>;
  onCitation: (citation: C) => void;
  header?: ReactNode;
}) {
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
          {header}
          {turn.answer === '' && turn.status === 'streaming' ? (
            <span className="loading loading-dots loading-sm" role="status" aria-label="Writing the answer" />
          ) : (
            <p className="whitespace-pre-wrap break-words leading-relaxed" data-testid="ask-answer-text">
              <AnswerText text={turn.answer} citations={byNumber} labels={labels} onCitation={onCitation} />
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
                <li key={c.n} className="max-w-full">
                  <button
                    type="button"
                    className="badge badge-outline badge-sm h-auto max-w-full cursor-pointer gap-1 py-0.5 hover:badge-primary"
                    title={`${labels.describe(c)}: ${c.text}`}
                    onClick={() => onCitation(c)}
                    data-testid="ask-citation"
                  >
                    <span className="font-semibold">{c.n}</span>
                    <span className="truncate">{labels.chip(c)}</span>
                  </button>
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

/** The answer with each `[n]` it cites as a link to the line; unknown numbers stay text. */
function AnswerText<C extends AskCitation>({
  text,
  citations,
  labels,
  onCitation,
}: {
  text: string;
  citations: Map<number, C>;
  labels: CitationLabels<C>;
  onCitation: (citation: C) => void;
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
          title={`${labels.describe(citation)}: ${citation.text}`}
          aria-label={`Line ${n}: ${labels.describe(citation)}`}
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
