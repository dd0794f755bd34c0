import { SubscribePage } from '../features/plans/subscribe-page';

/** /subscribe (product.md, Screens): plan choice. */
export default SubscribePage;
