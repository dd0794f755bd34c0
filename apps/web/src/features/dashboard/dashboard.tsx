import type { MeetingStats } from '@mbox/shared/stats';
import { trpc } from '../../lib/trpc';
import { MeetingsEmptyState } from '../meetings/empty-state';
import { GROUPED_LIST_INPUT } from '../meetings/use-meetings';
import { formatHoursMinutes } from './format';
import { ChartFrame, MeetingsPerWeekChart } from './lazy-charts';
import { TalkTimeChart } from './talk-time-chart';

/** product.md, Screens / Limits statistics dashboard: loading indicator, then the figures and charts, or the empty state. */
export function Dashboard() {
  const stats = trpc.stats.dashboard.useQuery();

  if (stats.isPending) {
    return (
      <div className="flex h-full min-h-48 items-center justify-center" role="status" aria-label="Loading statistics">
        <span className="loading loading-dots loading-lg text-primary" />
      </div>
    );
  }
  // A failure is toasted by the query cache; the panel stays calm rather than claiming zero meetings.
  if (stats.isError) {
    return <p className="p-6 text-center text-base-content/70">Statistics are not available right now.</p>;
  }
  if (stats.data.total === 0) return <MeetingsEmptyState />;
  return <DashboardFigures stats={stats.data} />;
}

function DashboardFigures({ stats }: { stats: MeetingStats }) {
  return (
    <div className="flex flex-col gap-4" data-testid="dashboard-stats">
      <StatCards stats={stats} />
      <div className="grid gap-4 xl:grid-cols-2">
        <section className="rounded-box border border-base-300 bg-base-100 p-4">
          <h3 className="mb-3 font-semibold">Meetings per week</h3>
          <ChartFrame height={220}>
            <MeetingsPerWeekChart perWeek={stats.perWeek} />
          </ChartFrame>
        </section>
        <LatestMeetingTalkTime />
      </div>
    </div>
  );
}

function Stat({ title, value, description, testId }: { title: string; value: string; description: string; testId: string }) {
  return (
    <div className="stats min-w-0 border border-base-300 bg-base-100 shadow-sm">
      <div className="stat min-w-0 px-4 py-3" data-testid={testId}>
        <div className="stat-title truncate">{title}</div>
        <div className="stat-value text-2xl">{value}</div>
        <div className="stat-desc truncate">{description}</div>
      </div>
    </div>
  );
}

/** The current month in the zone the server counted "this month" in. */
function monthName(timeZone: string): string {
  return new Date().toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone });
}

/** The figures of product.md, Limits as daisyUI stat cards in a grid, so they wrap on narrow panels instead of overflowing. */
function StatCards({ stats }: { stats: MeetingStats }) {
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-3">
      <Stat testId="stat-total" title="Total meetings" value={String(stats.total)} description="All time" />
      <Stat testId="stat-last7" title="Last 7 days" value={String(stats.last7Days)} description="Including today" />
      <Stat testId="stat-month" title="This month" value={String(stats.thisMonth)} description={monthName(stats.timeZone)} />
      <Stat
        testId="stat-analyzed"
        title="Analysed"
        value={String(stats.analyzed)}
        description={`${stats.analyzedPercent}% of meetings`}
      />
      <Stat
        testId="stat-total-time"
        title="Total time"
        value={formatHoursMinutes(stats.totalDuration)}
        description="In finished meetings"
      />
      <Stat
        testId="stat-month-time"
        title="Time this month"
        value={formatHoursMinutes(stats.thisMonthDuration)}
        description={monthName(stats.timeZone)}
      />
    </div>
  );
}

/** Talk time of the most recent meeting; the list query is shared with 'Last meetings' (one request). */
function LatestMeetingTalkTime() {
  const list = trpc.meeting.grouped.useQuery(GROUPED_LIST_INPUT);
  const latest = list.data?.groups[0]?.meetings[0];
  return (
    <section className="min-w-0 rounded-box border border-base-300 bg-base-100 p-4">
      <h3 className="font-semibold">Talk time</h3>
      <p className="mb-3 truncate text-sm text-base-content/70" title={latest?.title}>
        {latest ? latest.title : 'Latest meeting'}
      </p>
      {latest ? <TalkTimeChart meetingId={latest.key} /> : <span className="loading loading-dots loading-md text-primary" />}
    </section>
  );
}
