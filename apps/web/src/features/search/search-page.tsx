import { Link, useSearchParams } from 'react-router';
import { SEARCH_QUERY_MAX, type SearchContextLine, type SearchResult, type Snippet } from '@mbox/shared/search';
import { MIN_QUESTION_LENGTH } from '@mbox/shared/ui-messages';
import { trpc } from '../../lib/trpc';
import { askAllPath, type AskNowState } from '../ask/ask-all-link';
import { AskIcon } from '../ask/ask-icon';
import { SearchIcon } from './search-icon';
import { resultPath } from './search-link';
import { groupByMeeting, KIND_LABEL } from './search-results';
import { useSearchDraft } from './use-search-draft';

export const ENCRYPTED_NOTE = 'Encrypted meetings are not searched.';

/** Matched words marked; text only, never HTML. */
function SnippetText({ parts }: { parts: Snippet }) {
  return (
    <>
      {parts.map((part, i) =>
        part.match ? (
          <mark key={i} className="rounded bg-warning/40 px-0.5 text-base-content">
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

function ContextLine({ line }: { line: SearchContextLine | null }) {
  if (!line) return null;
  return (
    <p className="truncate text-sm text-base-content/70" data-testid="search-context">
      <span className="font-medium">{line.speaker}:</span> {line.text}
    </p>
  );
}

function ResultItem({ result }: { result: SearchResult }) {
  const who = result.kind === 'summary' ? result.summaryTitle : result.kind === 'participant' ? null : result.speaker;
  return (
    <li>
      <Link
        to={resultPath(result.meetingId, result.messageId)}
        className="block rounded-box px-3 py-2 hover:bg-base-200 focus-visible:bg-base-200"
        data-testid="search-result"
        data-kind={result.kind}
      >
        <ContextLine line={result.before} />
        <p className="break-words">
          <span className="badge badge-ghost badge-sm mr-2 align-middle">{KIND_LABEL[result.kind]}</span>
          {who && <span className="mr-1 font-semibold">{who}:</span>}
          <SnippetText parts={result.snippet} />
        </p>
        <ContextLine line={result.after} />
      </Link>
    </li>
  );
}

function Results({ q }: { q: string }) {
  const search = trpc.search.query.useQuery({ q }, { staleTime: 30_000, retry: false });
  if (search.isPending) {
    return (
      <div className="flex justify-center p-10" role="status" aria-label="Searching">
        <span className="loading loading-dots loading-lg text-primary" />
      </div>
    );
  }
  // The failure itself was shown by the app's one error mapping (a toast).
  if (search.isError) return <p className="p-6 text-center text-base-content/70">The search could not be run. Try again.</p>;
  const groups = groupByMeeting(search.data.results);
  if (groups.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 p-10 text-center" data-testid="search-empty">
        <h2 className="text-lg font-semibold">No results</h2>
        <p className="text-base-content/70">Nothing in your meetings matches “{q}”. Try other words or a name.</p>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4" data-testid="search-results">
      {groups.map((group) => (
        <section key={group.meetingId} className="card border border-base-300 bg-base-100" data-testid="search-meeting">
          <div className="card-body gap-2 p-3 sm:p-4">
            <header className="flex flex-wrap items-baseline justify-between gap-x-3 px-3">
              <h2 className="min-w-0 truncate text-lg font-semibold">
                <Link to={resultPath(group.meetingId, null)} className="link-hover">
                  {group.title}
                </Link>
              </h2>
              <time className="text-sm text-base-content/70" dateTime={new Date(group.date).toISOString()}>
                {new Date(group.date).toLocaleString('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })}
              </time>
            </header>
            <ul className="flex flex-col gap-1">
              {group.results.map((result, i) => (
                <ResultItem key={`${result.kind}-${result.messageId ?? i}`} result={result} />
              ))}
            </ul>
          </div>
        </section>
      ))}
    </div>
  );
}

/** Asks all meetings the words searched for (at once when they make a question), or opens the ask page. */
function AskAllButton({ q }: { q: string }) {
  const asks = q.length >= MIN_QUESTION_LENGTH;
  return (
    <Link
      to={askAllPath(q)}
      state={asks ? ({ askNow: true } satisfies AskNowState) : undefined}
      className="btn btn-outline btn-sm max-w-full gap-1"
      data-testid="search-ask-all"
    >
      <AskIcon className="size-4 shrink-0" />
      <span className="truncate">Ask all meetings{asks ? ` about “${q}”` : ''}</span>
    </Link>
  );
}

/** /search?q=: the user's meetings searched, results grouped by meeting, best first. */
export function SearchPage() {
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim().slice(0, SEARCH_QUERY_MAX);
  const { value, setDraft, submit } = useSearchDraft(q);

  return (
    <div className="mx-auto w-full max-w-3xl p-4 sm:p-6">
      <h1 className="mb-4 text-3xl font-bold">Search</h1>
      <form role="search" className="mb-2 flex gap-2" onSubmit={submit}>
        <label className="input w-full">
          <SearchIcon className="size-4 opacity-50" />
          <input
            type="search"
            name="q"
            aria-label="Search words"
            placeholder="Words, a “phrase” or a name"
            maxLength={SEARCH_QUERY_MAX}
            // An empty page (the phone's search icon) starts typing at once.
            autoFocus={!q}
            value={value}
            onChange={(e) => setDraft(e.target.value)}
          />
        </label>
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </form>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-base-content/70" data-testid="search-encrypted-note">
          {ENCRYPTED_NOTE}
        </p>
        <AskAllButton q={q} />
      </div>
      {q ? (
        <Results q={q} />
      ) : (
        <p className="p-6 text-center text-base-content/70">Search your transcripts, comments, titles, participants and summaries.</p>
      )}
    </div>
  );
}
