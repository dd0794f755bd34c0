import { SummarizerPage } from '../features/tools/summarizer-page';

/** /tools/summarization (product.md, Screens): the internal text and link summarizer. */
export default function ToolsSummarizationPage() {
  return <SummarizerPage kind="summary" base="/tools" />;
}
