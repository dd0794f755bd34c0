import { lazy, Suspense, type ReactNode } from 'react';

// chart.js is the biggest library of the app: it is fetched only when a chart is on screen.
const MeetingsPerWeekChartLazy = lazy(() => import('./charts').then((m) => ({ default: m.MeetingsPerWeekChart })));
const TalkTimeBarsLazy = lazy(() => import('./charts').then((m) => ({ default: m.TalkTimeBars })));

export function ChartFrame({ height, children }: { height: number; children: ReactNode }) {
  return (
    <div className="relative w-full" style={{ height }}>
      <Suspense
        fallback={
          <div className="flex h-full items-center justify-center" role="status" aria-label="Loading chart">
            <span className="loading loading-spinner loading-md text-base-content/40" />
          </div>
        }
      >
        {children}
      </Suspense>
    </div>
  );
}

export { MeetingsPerWeekChartLazy as MeetingsPerWeekChart, TalkTimeBarsLazy as TalkTimeBars };
