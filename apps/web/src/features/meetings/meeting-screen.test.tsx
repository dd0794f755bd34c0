import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { groupByDay } from '@mbox/shared/days';
import type { Meeting, Message } from '@mbox/shared/meeting';
import { apiError, createFakeTrpc } from '../../test/fake-trpc';
import { renderRoutes } from '../../test/render';
import MeetingsPage from '../../routes/meetings';
import { line } from '../../test/fixtures';

const routes = [
  { path: '/', element: <MeetingsPage /> },
  { path: '/:id', element: <MeetingsPage /> },
];

// Noon local time keeps each meeting on its calendar day in any TZ the tests run in.
const day = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).getTime();

function meeting(key: string, date: number, extra: Partial<Meeting> = {}): Meeting {
  return {
    key,
    title: `Meeting ${key}`,
    meetCode: 'abc-defg-hij',
    date,
    createdAt: date,
    finishedAt: date + 42 * 60_000,
    users: [],
    encrypted: false,
    isAnalyzed: false,
    ...extra,
  };
}

const MEETINGS = [
  meeting('m3', day(2026, 3, 12, 15), {
    users: ['Ann', 'Bob', 'Cleopatra Philopator Seventh', 'Dan', 'Eve', 'Fay', 'Gus', 'Ann'],
  }),
  meeting('m2', day(2026, 3, 12, 9)),
  meeting('m1', day(2026, 3, 10)),
];

/** What the server answers: days in the user's zone (here the test's own zone). */
function grouped(meetings: Meeting[]) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return {
    groups: groupByDay(meetings, (m) => m.date, zone).map(({ day, label, items }) => ({ day, label, meetings: items })),
  };
}

function setup(path: string, detail: Record<string, { meet: Meeting; messages: Message[] }> = {}) {
  const fake = createFakeTrpc({
    'meeting.grouped': () => grouped(MEETINGS),
    'meeting.get': (input) => {
      const id = (input as { id: string }).id;
      const found = detail[id];
      if (!found) throw apiError(404, 'NOT_FOUND', 'Meeting not found');
      return found;
    },
    // The transcript reads pages (here the whole meeting in one).
    'meeting.messages': (input) => {
      const found = detail[(input as { id: string }).id];
      if (!found) throw apiError(404, 'NOT_FOUND', 'Meeting not found');
      return { ...found, next: null, total: found.messages.length };
    },
    'meeting.exists': (input) => {
      const id = (input as { id: string }).id;
      return { exists: id in detail || MEETINGS.some((m) => m.key === id) };
    },
    'meeting.events': () => [],
    'meeting.delete': () => ({ success: true }),
    'stats.dashboard': () => ({
      total: MEETINGS.length,
      last7Days: 0,
      thisMonth: 0,
      analyzed: 0,
      analyzedPercent: 0,
      totalDuration: { hours: 2, minutes: 6 },
      thisMonthDuration: { hours: 0, minutes: 0 },
      perWeek: [],
      timeZone: 'UTC',
    }),
  });
  const view = renderRoutes(routes, { path, fake });
  return { fake, ...view };
}

const groups = () => screen.findAllByTestId('meeting-group') as Promise<HTMLDetailsElement[]>;

describe('meeting list grouping (product.md, Screens)', () => {
  it('groups by day, newest first, and opens the first group', async () => {
    setup('/');
    const [first, second] = await groups();
    expect(first?.querySelector('summary')?.textContent).toBe('Thursday, March 12, 2026 (2 meetings)');
    expect(second?.querySelector('summary')?.textContent).toBe('Tuesday, March 10, 2026 (1 meeting)');
    await waitFor(() => expect(first?.open).toBe(true));
    expect(second?.open).toBe(false);
    expect(within(first!).getAllByTestId('meeting-item').map((el) => el.dataset.meetingId)).toEqual(['m3', 'm2']);
  });

  it('opens the group holding the selected meeting instead', async () => {
    setup('/m1');
    const [first, second] = await groups();
    await waitFor(() => expect(second?.open).toBe(true));
    expect(first?.open).toBe(false);
  });

  it('shows 5 participant badges, truncated names, +N with a tooltip, and the duration', async () => {
    setup('/');
    const [first] = await groups();
    const item = within(first!).getAllByTestId('meeting-item')[0]!;
    const badges = within(item).getByTestId('participants');
    expect(badges.textContent).toContain('Cleopatra Philopator...');
    expect(within(badges).getByText('+2').closest('[data-tip]')?.getAttribute('data-tip')).toBe('Fay, Gus');
    expect(item.textContent).toContain('for 42 minutes');
  });

  it('shows the empty state once on the first run, with where meetings come from', async () => {
    const fake = createFakeTrpc({ 'meeting.grouped': () => grouped([]) });
    renderRoutes(routes, { path: '/', fake });
    expect(await screen.findByText('No meetings (yet)')).toBeTruthy();
    expect(screen.getAllByTestId('meetings-empty')).toHaveLength(1);
    // No extension answers here (jsdom): the empty state leads to the extension page.
    const install = await screen.findByRole('link', { name: 'Install the extension' }, { timeout: 3000 });
    expect(install.getAttribute('href')).toBe('/extension');
    expect(screen.getByText("You don't have any meetings to show yet")).toBeTruthy();
    expect(screen.getByText('Please start any Google Meet meeting for displaying it here')).toBeTruthy();
    const button = screen.getByRole('link', { name: 'New Google Meet' });
    expect(button.getAttribute('href')).toBe('https://meet.google.com/new');
    expect(button.getAttribute('target')).toBe('_blank');
  });

  it('removes a deleted meeting and leaves its page', async () => {
    const { router } = setup('/m2', { m2: { meet: MEETINGS[1]!, messages: [] } });
    const [first] = await groups();
    const item = within(first!).getAllByTestId('meeting-item')[1]!;
    fireEvent.click(within(item).getByRole('button', { name: 'Delete meeting Meeting m2' }));
    fireEvent.click(within(item).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryAllByTestId('meeting-item').map((el) => el.dataset.meetingId)).toEqual(['m3', 'm1']));
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('transcript (product.md, Screens / States)', () => {
  it('shows one not-found view for an unknown meeting: no panels, no failed calls, a way back', async () => {
    const { fake, router } = setup('/nope');
    expect(await screen.findByRole('heading', { name: 'Meeting not found' })).toBeTruthy();
    expect(screen.queryByText('Transcription')).toBeNull();
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
    const asked = fake.calls.map((c) => c.path);
    expect(asked).toContain('meeting.exists');
    for (const path of ['meeting.messages', 'meeting.events', 'summary.list']) expect(asked).not.toContain(path);
    expect(screen.queryByTestId('toast')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Back to your meetings' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('merges live lines: new ones inserted, updated ones replaced by key', async () => {
    const { fake } = setup('/m3', {
      m3: {
        meet: MEETINGS[0]!,
        messages: [line('l1', 'Ann', 'Hello all', 1000), line('l3', 'Bob', 'Hi Ann', 3000)],
      },
    });
    await screen.findAllByTestId('transcript-message');
    const rows = () =>
      screen
        .getAllByTestId('transcript-message')
        .map((el) => [el.dataset.speaker, within(el).getByTestId('message-text').textContent]);
    expect(rows()).toEqual([
      ['Ann', 'Hello all'],
      ['Bob', 'Hi Ann'],
    ]);

    await waitFor(() => expect(fake.subscriberCount('meeting.onLines')).toBe(1));
    act(() => {
      fake.push('meeting.onLines', line('l2', 'Ann', 'Let us begin', 2000));
      fake.push('meeting.onLines', line('l3', 'Bob', 'Hi Ann, good morning', 3000, 9000));
      fake.push('meeting.onLines', line('l4', 'Cy', 'Late joiner here', 4000));
    });
    // Live lines land in the query cache, which notifies on the next tick.
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(rows()).toEqual([
      ['Ann', 'Hello all'],
      ['Ann', 'Let us begin'],
      ['Bob', 'Hi Ann, good morning'],
      ['Cy', 'Late joiner here'],
    ]);
    // Ann's two consecutive lines form one run with one header.
    expect(screen.getAllByTestId('speaker-run').map((el) => el.dataset.speaker)).toEqual(['Ann', 'Bob', 'Cy']);
  });
});
