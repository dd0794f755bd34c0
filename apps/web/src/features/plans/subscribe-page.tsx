import { Page } from '../../routes/page';
import { SubscribePlans } from './subscribe-plans';

/** /subscribe (product.md, Screens): plan choice. */
export function SubscribePage() {
  return (
    <Page title="Choose Your Plan">
      <SubscribePlans />
    </Page>
  );
}
