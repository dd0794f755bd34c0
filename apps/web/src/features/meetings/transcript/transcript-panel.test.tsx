import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Meeting, Message } from '@mbox/shared/meeting';
import { apiError, createFakeTrpc } from '../../../test/fake-trpc';
import { line } from '../../../test/fixtures';
import { fakeSession, renderRoutes } from '../../../test/render';
import { TranscriptPanel } from '../transcript';

const MEET: Meeting = {
  key: 'm1',
  title: 'Weekly sync',
  meetCode: 'abc-defg-hij',
  date: 0,
  createdAt: 0,
  finishedAt: 30 * 60_000,
  users: ['Ann', 'Bob'],
  encrypted: false,
  isAnalyzed: false,
};

function setup(messages: Message[], handlers: Record<string, (input: unknown) => unknown> = {}, premium = false) {
  const fake = createFakeTrpc({
    'meeting.grouped': () => ({ groups: [] }),
    'meeting.messages': () => ({ meet: MEET, messages, next: null, total: messages.length }),
    'meeting.events': () => [],
    ...handlers,
  });
  renderRoutes([{ path: '/', element: <TranscriptPanel meetingId="m1" /> }], { fake, session: fakeSession({ premium }) });
  return fake;
}

const texts = () => screen.getAllByTestId('transcript-message').map((el) => within(el).getByTestId('message-text').textContent);

describe('TranscriptPanel', () => {
  it('shows the lines with the header, duration and hh:mm times', async () => {
    setup([line('a', 'Ann', 'Hello', 1000), line('b', 'Bob', 'Hi', 2000)]);
    await screen.findAllByTestId('transcript-message');
    expect(texts()).toEqual(['Hello', 'Hi']);
    expect(screen.getByTestId('meeting-duration').textContent).toBe('for 30 minutes');
    expect(screen.getAllByTestId('message-time')[0]?.textContent).toMatch(/^\d\d:\d\d [AP]M$/);
  });

  it('keeps every background page when a reconnect re-reads the opening page meanwhile', async () => {
    const first = [line('a', 'Ann', 'One', 1000), line('b', 'Bob', 'Two', 2000)];
    const rest = [line('c', 'Ann', 'Three', 3000), line('d', 'Bob', 'Four', 4000)];
    const opening = { meet: MEET, messages: first, next: 'after.2000.b', total: 4 };
    let openings = 0;
    let releasePage: () => void = () => {};
    let releaseReopening: () => void = () => {};
    const fake = setup([], {
      'meeting.messages': (input) => {
        if ((input as { cursor?: string }).cursor) {
          return new Promise((resolve) => (releasePage = () => resolve({ meet: MEET, messages: rest, next: null, total: 4 })));
        }
        openings += 1;
        return openings === 1 ? opening : new Promise((resolve) => (releaseReopening = () => resolve(opening)));
      },
    });
    await screen.findAllByTestId('transcript-message');
    await waitFor(() => expect(fake.calls.some((c) => c.path === 'meeting.messages' && (c.input as { cursor?: string }).cursor)).toBe(true));
    // The live stream reconnects while the next page is on its way; the page lands before the
    // re-read opening page does, which must not take the page back out.
    act(() => fake.restart('meeting.onLines'));
    await waitFor(() => expect(openings).toBe(2));
    await act(async () => releasePage());
    await waitFor(() => expect(texts()).toEqual(['One', 'Two', 'Three', 'Four']));
    await act(async () => releaseReopening());
    await waitFor(() => expect(screen.getByTestId('transcript-status').textContent).toBe('4 lines'));
    expect(texts()).toEqual(['One', 'Two', 'Three', 'Four']);
  });

  it('marks a line at once, keeps it through a live rewrite, and rolls back when saving fails', async () => {
    let fail = false;
    let release: () => void = () => {};
    const fake = setup([line('a', 'Ann', 'Hello', 1000)], {
      'message.mark': (input) =>
        new Promise((resolve, reject) => {
          release = () => (fail ? reject(apiError(500, 'INTERNAL_SERVER_ERROR')) : resolve({ ...line('a', 'Ann', 'Hello again', 1000, 5000), marks: (input as { marks: string[] }).marks }));
        }),
    });
    await screen.findAllByTestId('transcript-message');
    fireEvent.click(screen.getByRole('button', { name: 'Mark important' }));
    await waitFor(() => expect(screen.getByTestId('transcript-message').dataset.marks).toBe('important'));
    // A caption rewrite streamed before the save answers still shows the mark.
    act(() => fake.push('meeting.onLines', line('a', 'Ann', 'Hello there', 1000, 4000)));
    await waitFor(() => expect(screen.getByTestId('message-text').textContent).toBe('Hello there'));
    expect(screen.getByTestId('transcript-message').dataset.marks).toBe('important');
    await act(async () => release());
    await waitFor(() => expect(screen.getByTestId('message-text').textContent).toBe('Hello again'));
    expect(screen.getByTestId('transcript-message').dataset.marks).toBe('important');

    fail = true;
    fireEvent.click(screen.getByRole('button', { name: 'Flag' }));
    await waitFor(() => expect(screen.getByTestId('transcript-message').dataset.marks).toBe('important flagged'));
    await act(async () => release());
    await waitFor(() => expect(screen.getByTestId('transcript-message').dataset.marks).toBe('important'));
  });

  it('filters by speaker and by mark, commented matching a comment', async () => {
    setup([
      line('a', 'Ann', 'one', 1000),
      { ...line('b', 'Bob', 'two', 2000), comment: 'note' },
      { ...line('c', 'Cy', 'three', 3000), marks: ['flagged'] },
    ]);
    await screen.findAllByTestId('transcript-message');
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    const panel = screen.getByTestId('transcript-filter');
    fireEvent.click(within(panel).getByRole('checkbox', { name: /Ann/ }));
    await waitFor(() => expect(texts()).toEqual(['one']));
    fireEvent.click(within(panel).getByRole('checkbox', { name: /Commented/ }));
    await waitFor(() => expect(texts()).toEqual(['one', 'two']));
    fireEvent.click(within(panel).getByRole('checkbox', { name: /Ann/ }));
    fireEvent.click(within(panel).getByRole('checkbox', { name: /Flagged/ }));
    await waitFor(() => expect(texts()).toEqual(['two', 'three']));
  });

  it('offers the upgrade card instead of Optimize to a Basic user', async () => {
    setup([line('a', 'Ann', 'Hello', 1000)]);
    await screen.findAllByTestId('transcript-message');
    fireEvent.click(screen.getByRole('button', { name: 'Optimize' }));
    expect(screen.getByTestId('upgrade-card').textContent).toContain('Premium Feature');
  });
});
