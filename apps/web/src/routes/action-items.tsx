import { ActionItemsPage } from '../features/action-items/action-items-page';

/** /action-items?owner=&status=&meeting=&dueFrom=&dueTo= (docs/action-items.md): every meeting's action items. */
export default ActionItemsPage;
