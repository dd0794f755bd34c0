import { SubscribePage } from '../features/plans/subscribe-page';

/** /subscribe (spec §2): plan choice. */
export default SubscribePage;
