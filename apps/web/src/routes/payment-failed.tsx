import { Link } from 'react-router';
import { PAYMENT_FAILED } from '@mbox/shared/ui-messages';
import { Page } from './page';

/** /payment-failed (spec §2, text of spec §8). */
export default function PaymentFailedPage() {
  return (
    <Page title="Payment Failed!">
      <p className="mb-6">{PAYMENT_FAILED}</p>
      <Link to="/settings" className="btn btn-primary">
        Go to Your Account
      </Link>
    </Page>
  );
}
