import { Page } from './page';

/** /tools/youtube (spec §2): the internal YouTube summarizer. */
export default function ToolsYoutubePage() {
  return <Page title="YouTube" />;
}
