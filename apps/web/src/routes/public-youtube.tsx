import { Page } from './page';

/** /public/youtube (spec §2): the public YouTube summarizer. */
export default function PublicYoutubePage() {
  return <Page title="YouTube" />;
}
