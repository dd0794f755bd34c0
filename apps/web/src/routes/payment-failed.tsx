import { PaymentFailedPage } from '../features/plans/payment-pages';

/** /payment-failed (product.md, Screens, text of product.md, Errors). */
export default PaymentFailedPage;
