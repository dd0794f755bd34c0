import { skipToken, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { formatMessageTime } from '@mbox/shared/format';
import type { SummaryCitation } from '@mbox/shared/summary';
import { lineLink } from '../meetings/line-link';
import type { TranscriptCache } from '../meetings/transcript/transcript-cache';
import { transcriptQueryKey } from '../meetings/use-live-transcript';
import { SummaryHtml } from './summary-html';

/** Longest line quoted in a citation's tooltip. */
const TOOLTIP_LINE_CHARS = 160;

/**
 * A summary or translation with a chip per cited line: its time, the speaker and the line as tooltip,
 * and a click (or Enter) opens the line highlighted in the transcript. `onCitation` runs after the
 * jump (a phone switches to its transcript tab).
 */
export function SummaryText({
  meetingId,
  html,
  citations,
  lang,
  onCitation,
}: {
  meetingId: string;
  html: string;
  citations: readonly SummaryCitation[];
  lang: string;
  onCitation?: () => void;
}) {
  const navigate = useNavigate();
  // The transcript panel's lines, when it has read them: the tooltips quote them (nothing is fetched here).
  const transcript = useQuery<TranscriptCache>({ queryKey: transcriptQueryKey(meetingId), queryFn: skipToken });
  const messages = transcript.data?.messages;
  const lineText = useMemo(() => new Map((messages ?? []).map((m) => [m.key, m.text])), [messages]);
  const byNumber = useMemo(() => new Map(citations.map((c) => [c.n, c])), [citations]);

  const renderCitation = useCallback(
    (numbers: number[], key: string) => {
      const cited = numbers.flatMap((n) => byNumber.get(n) ?? []);
      if (cited.length === 0) return null;
      return (
        <span key={key} className="ml-0.5 inline-flex flex-wrap gap-0.5 align-baseline">
          {cited.map((citation) => (
            <CitationChip
              key={citation.n}
              citation={citation}
              line={lineText.get(citation.messageId)}
              onOpen={() => {
                navigate(lineLink(meetingId, citation.messageId));
                onCitation?.();
              }}
            />
          ))}
        </span>
      );
    },
    [byNumber, lineText, meetingId, navigate, onCitation],
  );

  return <SummaryHtml html={html} renderCitation={renderCitation} lang={lang} testId="summary-text" />;
}

function CitationChip({ citation, line, onOpen }: { citation: SummaryCitation; line: string | undefined; onOpen: () => void }) {
  const time = formatMessageTime(citation.spokenAt);
  const quote = line && line.length > TOOLTIP_LINE_CHARS ? `${line.slice(0, TOOLTIP_LINE_CHARS - 1).trimEnd()}…` : line;
  const tip = `${citation.speaker} · ${time}${quote ? `: “${quote}”` : ''}`;
  // The browser's own tooltip: a styled one would be clipped by the scrolling panel.
  return (
    <button
      type="button"
      className="inline-flex h-4 cursor-pointer items-center rounded bg-primary/15 px-1 align-text-top text-[0.65rem] font-semibold text-primary hover:bg-primary hover:text-primary-content focus-visible:outline-2 focus-visible:outline-primary"
      title={tip}
      aria-label={`Open the line: ${tip}`}
      onClick={onOpen}
      data-testid="summary-citation"
    >
      {time}
    </button>
  );
}
