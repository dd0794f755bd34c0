import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { SUMMARIZER_MAX_TEXT_CHARS, SUMMARIZER_MIN_TEXT_CHARS } from '@mbox/shared/tools';
import { SummarizerResult, SummarizingCard } from './summarizer-result';
import { readSummarizerInput, type SummarizerKind } from './summarizer-input';
import { TOOLS, type ToolsBase } from './tools-landing';
import { useSummarizer } from './use-summarizer';

/** The low end of the documented 12 to 15 rows (product.md, Screens): the result is scrolled into view below it. */
const TEXT_ROWS = 12;
const formatCount = (n: number) => n.toLocaleString('en-US');

/**
 * product.md, Screens Summarizer page, for the four routes: text or link (`kind: 'summary'`) or YouTube links
 * only (`kind: 'youtube'`), signed in under /tools or public under /public. The `text` and `link`
 * query parameters fill the form and summarise on load.
 */
export function SummarizerPage({ kind, base }: { kind: SummarizerKind; base: ToolsBase }) {
  const [params] = useSearchParams();
  const [text, setText] = useState(() => (kind === 'summary' ? (params.get('text') ?? '') : ''));
  const [link, setLink] = useState(() => params.get('link') ?? '');
  const { run, summarize, reset } = useSummarizer(base === '/public' ? 'public' : 'tools');
  const tool = TOOLS[kind === 'youtube' ? 'youtube' : 'summarization'];
  const Icon = tool.icon;
  const ids = { text: useId(), link: useId(), linkError: useId(), count: useId() };

  const input = readSummarizerInput(kind, { text, link });
  const loading = run.status === 'loading';
  const canSummarize = input.status === 'ready' && !loading;
  const showText = kind === 'summary' && !link.trim();
  const showLink = !text.trim();
  const linkError = input.status === 'invalid-link' ? input.error : null;
  const textLength = text.trim().length;

  // product.md, Screens: query parameters summarise on load, once (the first input state decides).
  const autoRun = useRef(input.status === 'ready' ? input.request : null);
  useEffect(() => {
    if (autoRun.current) summarize(autoRun.current);
  }, [summarize]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input.status === 'ready' && !loading) summarize(input.request);
  };

  // What the click produced sits below the form, often below the fold: bring it into view when it appears.
  const outcome = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (run.status !== 'idle') outcome.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [run.status]);

  const clear = () => {
    setText('');
    setLink('');
    reset();
  };

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6 sm:py-10">
      <div className="mb-6 flex items-start gap-4">
        <span className={`hidden h-12 w-12 shrink-0 items-center justify-center rounded-xl sm:flex ${tool.tone}`}>
          <Icon />
        </span>
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{tool.heading}</h1>
          <p className="mt-1 text-base-content/70">
            {kind === 'youtube'
              ? 'Paste a YouTube link: the summary is made from the video’s captions.'
              : 'Paste a text or a link to a web page and get its key points.'}
          </p>
        </div>
      </div>

      <form onSubmit={submit} noValidate className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-4 p-4 sm:p-6">
          {showText && (
            <div>
              <label htmlFor={ids.text} className="mb-1.5 block text-sm font-medium">
                Text
              </label>
              <textarea
                id={ids.text}
                rows={TEXT_ROWS}
                value={text}
                onChange={(event) => setText(event.target.value)}
                placeholder="Enter your text here..."
                aria-describedby={ids.count}
                aria-invalid={input.status === 'too-long'}
                className={`textarea w-full resize-y text-base leading-relaxed ${input.status === 'too-long' ? 'textarea-error' : ''}`}
              />
              <p id={ids.count} className="mt-1 flex justify-between gap-3 text-xs text-base-content/70">
                <span>
                  {textLength > 0 && textLength < SUMMARIZER_MIN_TEXT_CHARS
                    ? `At least ${formatCount(SUMMARIZER_MIN_TEXT_CHARS)} characters`
                    : `Up to ${formatCount(SUMMARIZER_MAX_TEXT_CHARS)} characters`}
                </span>
                <span className={`tabular-nums ${input.status === 'too-long' ? 'font-semibold text-error' : ''}`}>
                  {formatCount(textLength)} / {formatCount(SUMMARIZER_MAX_TEXT_CHARS)} characters
                </span>
              </p>
            </div>
          )}

          {showText && showLink && (
            <div className="divider my-0 text-xs uppercase text-base-content/70">or</div>
          )}

          {showLink && (
            <div>
              <label htmlFor={ids.link} className="mb-1.5 block text-sm font-medium">
                {kind === 'youtube' ? 'YouTube link' : 'Link'}
              </label>
              <input
                id={ids.link}
                type="text"
                inputMode="url"
                autoComplete="url"
                spellCheck={false}
                value={link}
                onChange={(event) => setLink(event.target.value)}
                placeholder={kind === 'youtube' ? 'https://www.youtube.com/watch?v=...' : 'https://example.com/article'}
                aria-invalid={linkError !== null}
                aria-describedby={linkError ? ids.linkError : undefined}
                className={`input w-full text-base ${linkError ? 'input-error' : ''}`}
              />
              {linkError && (
                <p id={ids.linkError} className="mt-1.5 text-sm font-medium text-error">
                  {linkError}
                </p>
              )}
            </div>
          )}

          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-xs text-base-content/70">
              {kind === 'summary' && input.status === 'ready' && input.request.mode === 'youtube' ? (
                <>YouTube link: summarised from the video’s captions.</>
              ) : kind === 'summary' ? (
                <>
                  Summarising a video?{' '}
                  <Link to={`${base}/youtube`} className="link link-primary">
                    Try the YouTube summarizer
                  </Link>
                </>
              ) : (
                <>
                  A text or a web page?{' '}
                  <Link to={`${base}/summarization`} className="link link-primary">
                    Try the Summarizer
                  </Link>
                </>
              )}
            </p>
            <div className="ml-auto flex gap-2">
              {(text || link || run.status !== 'idle') && (
                <button type="button" className="btn btn-ghost" onClick={clear} disabled={loading}>
                  Clear
                </button>
              )}
              <button type="submit" className="btn btn-primary min-w-32" disabled={!canSummarize}>
                {loading && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
                Summarize
              </button>
            </div>
          </div>
        </div>
      </form>

      <div ref={outcome} className="mt-6 scroll-mt-4" aria-live="polite">
        {run.status === 'loading' && <SummarizingCard source={run.source} written={run.written} />}
        {run.status === 'error' && (
          <div role="alert" className="alert alert-error alert-soft">
            <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" className="h-5 w-5 shrink-0" aria-hidden="true">
              <circle cx="12" cy="12" r="9" />
              <path d="M12 7.5v5.5M12 16.5h.01" strokeLinecap="round" />
            </svg>
            <span data-testid="summarizer-error-text">{run.message}</span>
          </div>
        )}
        {run.status === 'done' && <SummarizerResult result={run.result} />}
      </div>
    </div>
  );
}
