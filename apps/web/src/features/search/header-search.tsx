import { Link, useLocation, useSearchParams } from 'react-router';
import { SEARCH_QUERY_MAX } from '@mbox/shared/search';
import { SearchIcon } from './search-icon';
import { useSearchDraft } from './use-search-draft';

/**
 * The header's search: a field on wide screens; on phones an icon that opens the search page, whose
 * own field takes the words (a header has no room for one at 390 px).
 */
export function HeaderSearch() {
  const location = useLocation();
  const [params] = useSearchParams();
  const onSearchPage = location.pathname === '/search';
  // The field shows the page's query while on the search page, what the reader types elsewhere.
  const { value, setDraft, submit } = useSearchDraft(onSearchPage ? (params.get('q') ?? '') : '');

  return (
    <>
      <form role="search" className="hidden md:block" onSubmit={submit}>
        <label className="input input-sm w-36 xl:w-52">
          <SearchIcon className="size-4 opacity-50" />
          <input
            type="search"
            name="q"
            aria-label="Search meetings"
            placeholder="Search meetings"
            maxLength={SEARCH_QUERY_MAX}
            value={value}
            onChange={(e) => setDraft(e.target.value)}
          />
        </label>
      </form>
      <Link to="/search" className="btn btn-ghost btn-square btn-sm md:hidden" aria-label="Search meetings">
        <SearchIcon className="size-5" />
      </Link>
    </>
  );
}
