import { OutboxPage } from '../features/outbox/outbox-page';

/** /outbox: recap e-mails sent (or written to the outbox folder) after meetings. */
export default OutboxPage;
