import { UnsubscribePage } from '../features/unsubscribe/unsubscribe-page';

/** /unsubscribe?token=… (public): turns recap e-mails off from the e-mail's link. */
export default UnsubscribePage;
