import { Link } from 'react-router';
import { Page } from './page';

/** /payment-succeeded (spec §2). */
export default function PaymentSucceededPage() {
  return (
    <Page title="Payment Successful!">
      <Link to="/settings" className="btn btn-primary">
        Go to Your Account
      </Link>
    </Page>
  );
}
