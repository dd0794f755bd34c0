import { Page } from './page';

/** /public/summarization (spec §2): the public text and link summarizer. */
export default function PublicSummarizationPage() {
  return <Page title="Summarizer" />;
}
