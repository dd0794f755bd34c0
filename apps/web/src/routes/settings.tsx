import { SettingsPage } from '../features/settings/settings-page';

/** /settings (product.md, Screens): tabs General, Summary, Account. */
export default SettingsPage;
