import { Page } from '../../routes/page';
import { SubscribePlans } from './subscribe-plans';

/** /subscribe (spec §2): plan choice. */
export function SubscribePage() {
  return (
    <Page title="Choose Your Plan">
      <SubscribePlans />
    </Page>
  );
}
