import { SummarizerPage } from '../features/tools/summarizer-page';

/** /tools/youtube (spec §2): the internal YouTube summarizer. */
export default function ToolsYoutubePage() {
  return <SummarizerPage kind="youtube" base="/tools" />;
}
