import { Page } from './page';

/** /settings: tabs General, Summary, Account (spec §2) come with the settings work. */
export default function SettingsPage() {
  return <Page title="Settings" />;
}
