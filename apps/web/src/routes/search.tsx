import { SearchPage } from '../features/search/search-page';

/** /search?q= (issue 15): search across all of the user's meetings. */
export default SearchPage;
