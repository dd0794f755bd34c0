import { Page } from './page';

/** /dashboard: the statistics dashboard (its figures come with the stats work). */
export default function DashboardPage() {
  return <Page title="Dashboard" />;
}
