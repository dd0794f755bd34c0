import { RecipientPage } from '../features/recipient/recipient-page';

/** /recipient?token=… (public): someone asked to receive another account's recaps agrees or declines. */
export default RecipientPage;
