import { SummarizerPage } from '../features/tools/summarizer-page';

/** /public/youtube (spec §2): the public YouTube summarizer. */
export default function PublicYoutubePage() {
  return <SummarizerPage kind="youtube" base="/public" />;
}
