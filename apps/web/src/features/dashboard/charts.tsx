import { BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip, type ChartOptions } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import type { MeetingStats, TalkTime } from '@mbox/shared/stats';
import { formatTalkTime, weekLabel } from './format';

// Only the pieces these bar charts use, so the chart chunk stays small (react-chartjs-2's Bar
// registers its own controller). This module is loaded lazily, never with the first page.
ChartJS.register(CategoryScale, LinearScale, BarElement, Tooltip);

/** A daisyUI theme colour as the canvas needs it (the theme defines them as CSS variables). */
function themeColor(name: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback;
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

const gridColor = 'rgba(0, 0, 0, 0.06)';

export function MeetingsPerWeekChart({ perWeek }: { perWeek: MeetingStats['perWeek'] }) {
  const primary = themeColor('--color-primary', '#605dff');
  const options: ChartOptions<'bar'> = {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    plugins: {
      tooltip: {
        callbacks: {
          title: (items) => `Week of ${items[0]?.label ?? ''}`,
          label: (item) => `${item.formattedValue} meeting${item.raw === 1 ? '' : 's'}`,
        },
      },
    },
    scales: {
      // Level labels, thinned out when the panel is narrow, read better than rotated ones.
      x: { grid: { display: false }, ticks: { maxRotation: 0, autoSkipPadding: 12 } },
      y: { beginAtZero: true, ticks: { precision: 0 }, grid: { color: gridColor } },
    },
  };
  return (
    <Bar
      aria-label="Meetings per week"
      role="img"
      options={options}
      data={{
        labels: perWeek.map((w) => weekLabel(w.weekStart)),
        datasets: [{ data: perWeek.map((w) => w.count), backgroundColor: primary, borderRadius: 4, maxBarThickness: 36 }],
      }}
    />
  );
}

export function TalkTimeBars({ speakers }: { speakers: TalkTime['speakers'] }) {
  const secondary = themeColor('--color-secondary', '#f43098');
  const options: ChartOptions<'bar'> = {
    indexAxis: 'y',
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    plugins: {
      tooltip: {
        callbacks: {
          label: (item) => {
            const speaker = speakers[item.dataIndex];
            return speaker ? `${formatTalkTime(speaker.ms)} (${speaker.percent}%)` : '';
          },
        },
      },
    },
    scales: {
      x: {
        beginAtZero: true,
        grid: { color: gridColor },
        ticks: { precision: 0, callback: (value) => `${value} min` },
      },
      y: { grid: { display: false } },
    },
  };
  return (
    <Bar
      aria-label="Talk time per speaker"
      role="img"
      options={options}
      data={{
        labels: speakers.map((s) => s.user),
        // Minutes on the axis read better than milliseconds.
        datasets: [{ data: speakers.map((s) => s.ms / 60_000), backgroundColor: secondary, borderRadius: 4, maxBarThickness: 22 }],
      }}
    />
  );
}
