import { SummarizerPage } from '../features/tools/summarizer-page';

/** /public/summarization (product.md, Screens): the public text and link summarizer. */
export default function PublicSummarizationPage() {
  return <SummarizerPage kind="summary" base="/public" />;
}
