import { PaymentSucceededPage } from '../features/plans/payment-pages';

/** /payment-succeeded (spec §2). */
export default PaymentSucceededPage;
