import { ToolsLanding } from '../features/tools/tools-landing';

/** /tools: AI Tools landing with the Summarizer and YouTube cards (spec §2). */
export default function ToolsPage() {
  return <ToolsLanding />;
}
