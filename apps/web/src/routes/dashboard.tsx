import { Dashboard } from '../features/dashboard/dashboard';

/** /dashboard: the statistics dashboard alone (product.md, Screens). */
export default function DashboardPage() {
  return (
    <div className="mx-auto w-full max-w-6xl p-4 sm:p-6">
      <h1 className="mb-4 text-2xl font-bold sm:text-3xl">Dashboard</h1>
      <Dashboard />
    </div>
  );
}
