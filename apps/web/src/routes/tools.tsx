import { ToolsLanding } from '../features/tools/tools-landing';

/** /tools: AI Tools landing with the Summarizer and YouTube cards (product.md, Screens). */
export default function ToolsPage() {
  return <ToolsLanding />;
}
