import { ChangelogPage } from '../features/changelog/changelog-page';

/** /changelog (product.md, Screens): version history. */
export default ChangelogPage;
