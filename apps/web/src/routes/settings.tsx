import { SettingsPage } from '../features/settings/settings-page';

/** /settings (spec §2): tabs General, Summary, Account. */
export default SettingsPage;
