import { ChangelogPage } from '../features/changelog/changelog-page';

/** /changelog (spec §2): version history. */
export default ChangelogPage;
