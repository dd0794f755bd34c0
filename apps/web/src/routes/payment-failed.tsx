import { PaymentFailedPage } from '../features/plans/payment-pages';

/** /payment-failed (spec §2, text of spec §8). */
export default PaymentFailedPage;
