import { useRef, useState, type RefObject } from 'react';
import type { SummarizeResult, SummarySource } from '@mbox/shared/tools';

/**
 * Typography for the server's summary HTML (headings, paragraphs, lists, links), written as variants
 * because the app has no typography plugin. The HTML is sanitised by the server like the meeting
 * summaries, which is why it may be set as HTML here.
 */
export const SUMMARY_HTML_CLASS = [
  'text-[15px] leading-relaxed text-base-content',
  '[&_h1]:mb-2 [&_h1]:mt-5 [&_h1]:text-xl [&_h1]:font-bold',
  '[&_h2]:mb-2 [&_h2]:mt-5 [&_h2]:text-lg [&_h2]:font-semibold',
  '[&_h3]:mb-1.5 [&_h3]:mt-4 [&_h3]:font-semibold',
  '[&_p]:my-2 [&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6',
  '[&_li]:my-1 [&_li]:pl-1 [&_strong]:font-semibold [&_a]:text-primary [&_a]:underline',
  '[&_blockquote]:border-l-4 [&_blockquote]:border-base-300 [&_blockquote]:pl-4 [&_blockquote]:italic',
  '[&>*:first-child]:mt-0',
].join(' ');

/** product.md, Screens: while loading, a skeleton and 'Summarizing...'; the summary's text shows as it is written. */
export function SummarizingCard({ source, written }: { source: SummarySource | null; written: string }) {
  return (
    <section className="card border border-base-300 bg-base-100" aria-busy="true">
      <div className="card-body gap-4 p-4 sm:p-6">
        <div className="flex items-center gap-2 text-sm font-medium text-primary">
          <span className="loading loading-dots loading-sm" aria-hidden="true" />
          <span>Summarizing...</span>
          {source?.title && <span className="truncate text-base-content/70">{source.title}</span>}
        </div>
        {written ? (
          <p className="whitespace-pre-wrap text-[15px] leading-relaxed" data-testid="summary-stream">
            {written}
          </p>
        ) : (
          <div className="space-y-3" aria-hidden="true">
            <div className="skeleton h-5 w-2/5" />
            <div className="skeleton h-4 w-full" />
            <div className="skeleton h-4 w-11/12" />
            <div className="skeleton h-4 w-4/5" />
            <div className="skeleton h-4 w-full" />
            <div className="skeleton h-4 w-3/5" />
          </div>
        )}
      </div>
    </section>
  );
}

/** Copies the summary as the reader sees it (rendered text keeps list items on their own lines). */
function CopyButton({ target }: { target: RefObject<HTMLElement | null> }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    const text = target.current?.innerText.trim() ?? '';
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch (error) {
      // No clipboard permission (an insecure origin): nothing to show beyond the button staying as is.
      console.warn('[mbox] copy failed', error);
    }
  };
  return (
    <button type="button" className="btn btn-ghost btn-sm" onClick={() => void copy()}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** The summary (HTML) and what was summarised (metadata HTML), both sanitised by the server. */
export function SummarizerResult({ result }: { result: SummarizeResult }) {
  const { source } = result;
  const summary = useRef<HTMLDivElement>(null);
  return (
    <section className="card border border-base-300 bg-base-100 shadow-sm" aria-labelledby="summary-heading">
      <div className="card-body gap-4 p-4 sm:p-6">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 id="summary-heading" className="text-lg font-semibold">
              Summary
            </h2>
            {source.url ? (
              <a href={source.url} target="_blank" rel="noopener noreferrer" className="link link-hover block truncate text-sm text-base-content/70">
                {source.title || source.url}
              </a>
            ) : (
              source.title && <p className="truncate text-sm text-base-content/70">{source.title}</p>
            )}
          </div>
          <CopyButton target={summary} />
        </div>
        <div ref={summary} className={SUMMARY_HTML_CLASS} data-testid="summary-html" dangerouslySetInnerHTML={{ __html: result.summary }} />
        {result.metadata && (
          <div
            className="rounded-box bg-base-200 px-4 py-3 text-sm text-base-content/70 [&_a]:link [&_dd]:inline [&_dt]:inline [&_dt]:font-medium [&_li]:my-0.5 [&_p]:my-0.5"
            data-testid="summary-metadata"
            dangerouslySetInnerHTML={{ __html: result.metadata }}
          />
        )}
      </div>
    </section>
  );
}
