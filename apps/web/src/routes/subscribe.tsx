import { Page } from './page';

/** /subscribe (spec §2): plan choice. */
export default function SubscribePage() {
  return <Page title="Choose Your Plan" />;
}
