import { Page } from './page';

/** /changelog (spec §2): version history. */
export default function ChangelogPage() {
  return <Page title="ChangeLog" />;
}
