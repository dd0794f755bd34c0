import { Page } from './page';
import { ToolCards } from './tools';

/** /public (spec §2): tools landing without login; pricing comes with the plans work. */
export default function PublicPage() {
  return (
    <Page title="AI Tools">
      <ToolCards base="/public" />
    </Page>
  );
}
