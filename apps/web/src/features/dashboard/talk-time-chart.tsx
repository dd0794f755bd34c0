import { trpc } from '../../lib/trpc';
import { formatTalkTime } from './format';
import { ChartFrame, TalkTimeBars } from './lazy-charts';

/** Height per speaker row; the chart grows with the number of speakers instead of squeezing them. */
const ROW_PX = 30;

/** Talk time per speaker in one meeting (GET /v1/stats/talk-time/{id}) as horizontal bars. */
export function TalkTimeChart({ meetingId }: { meetingId: string }) {
  // A meeting without talk time is not an error worth a toast: the section just says so.
  const talkTime = trpc.stats.talkTime.useQuery({ id: meetingId }, { meta: { silent: true } });

  if (talkTime.isPending) {
    return (
      <div className="flex h-24 items-center justify-center" role="status" aria-label="Loading talk time">
        <span className="loading loading-dots loading-md text-primary" />
      </div>
    );
  }
  const speakers = talkTime.data?.speakers ?? [];
  if (talkTime.isError || speakers.length === 0 || talkTime.data.totalMs === 0) {
    return <p className="py-4 text-sm text-base-content/70">No talk time recorded yet</p>;
  }
  return (
    <div data-testid="talk-time-chart">
      <ChartFrame height={Math.max(90, speakers.length * ROW_PX + 40)}>
        <TalkTimeBars speakers={speakers} />
      </ChartFrame>
      <p className="mt-1 text-xs text-base-content/70">Total talk time {formatTalkTime(talkTime.data.totalMs)}</p>
    </div>
  );
}
