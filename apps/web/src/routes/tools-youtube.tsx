import { SummarizerPage } from '../features/tools/summarizer-page';

/** /tools/youtube (product.md, Screens): the internal YouTube summarizer. */
export default function ToolsYoutubePage() {
  return <SummarizerPage kind="youtube" base="/tools" />;
}
