import { Link } from 'react-router';
import { Page } from './page';

export function ToolCards({ base }: { base: '/tools' | '/public' }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Link to={`${base}/summarization`} className="card bg-base-100 shadow transition-shadow hover:shadow-lg">
        <div className="card-body">
          <h2 className="card-title">Summarizer</h2>
        </div>
      </Link>
      <Link to={`${base}/youtube`} className="card bg-base-100 shadow transition-shadow hover:shadow-lg">
        <div className="card-body">
          <h2 className="card-title">YouTube</h2>
        </div>
      </Link>
    </div>
  );
}

/** /tools: AI Tools landing with the Summarizer and YouTube cards (spec §2). */
export default function ToolsPage() {
  return (
    <Page title="AI Tools">
      <ToolCards base="/tools" />
    </Page>
  );
}
