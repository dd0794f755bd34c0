import { SearchPage } from '../features/search/search-page';

/** /search?q= (docs/search.md): search across all of the user's meetings. */
export default SearchPage;
