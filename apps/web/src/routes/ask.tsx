import { AskAllPage } from '../features/ask/ask-all-page';

/** /ask?q= (docs/ask.md, "Ask all meetings"): a question across all of the user's meetings. */
export default AskAllPage;
