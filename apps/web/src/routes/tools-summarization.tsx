import { Page } from './page';

/** /tools/summarization (spec §2): the internal text and link summarizer. */
export default function ToolsSummarizationPage() {
  return <Page title="Summarizer" />;
}
