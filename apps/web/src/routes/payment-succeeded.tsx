import { PaymentSucceededPage } from '../features/plans/payment-pages';

/** /payment-succeeded (product.md, Screens). */
export default PaymentSucceededPage;
