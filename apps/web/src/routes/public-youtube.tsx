import { SummarizerPage } from '../features/tools/summarizer-page';

/** /public/youtube (product.md, Screens): the public YouTube summarizer. */
export default function PublicYoutubePage() {
  return <SummarizerPage kind="youtube" base="/public" />;
}
