import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MeetingEvent } from '@mbox/shared/capture-events';
import type { Meeting } from '@mbox/shared/meeting';
import { createFakeTrpc } from '../../../test/fake-trpc';
import { line } from '../../../test/fixtures';
import { fakeSession, renderRoutes } from '../../../test/render';
import { TranscriptPanel } from '../transcript';

const MEET: Meeting = {
  key: 'm1',
  title: 'Weekly sync',
  meetCode: 'abc-defg-hij',
  date: 0,
  createdAt: 0,
  finishedAt: null,
  users: ['Ann'],
  encrypted: false,
  isAnalyzed: false,
};

const at = (minute: number) => minute * 60_000;
const hhmm = /\d\d:\d\d [AP]M/.source;

describe('TranscriptPanel capture gaps', () => {
  it('shows each gap in place by time, closed with its span and open with its start', async () => {
    const gaps: MeetingEvent[] = [
      { key: 'g1', kind: 'captions-off', startedAt: at(2), endedAt: at(7) },
      { key: 'g2', kind: 'no-captions', startedAt: at(9), endedAt: null },
    ];
    const fake = createFakeTrpc({
      'meeting.grouped': () => ({ groups: [] }),
      'meeting.messages': () => ({ meet: MEET, messages: [line('a', 'Ann', 'Before', at(1)), line('b', 'Ann', 'After', at(8))], next: null, total: 2 }),
      'meeting.events': () => gaps,
    });
    renderRoutes([{ path: '/', element: <TranscriptPanel meetingId="m1" /> }], { fake, session: fakeSession() });

    const rows = await screen.findAllByTestId('transcript-gap');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(new RegExp(`^Captions were off ${hhmm}–${hhmm}$`)),
      expect.stringMatching(new RegExp(`^No captions since ${hhmm}$`)),
    ]);
    const order = Array.from(document.querySelectorAll('[data-testid="transcript-gap"], [data-testid="message-text"]')).map(
      (el) => el.textContent,
    );
    expect(order.map((text) => text?.split(' ')[0])).toEqual(['Before', 'Captions', 'After', 'No']);
  });

  it('shows a gap even when no line was captured', async () => {
    const fake = createFakeTrpc({
      'meeting.grouped': () => ({ groups: [] }),
      'meeting.messages': () => ({ meet: MEET, messages: [], next: null, total: 0 }),
      'meeting.events': () => [{ key: 'g1', kind: 'captions-off', startedAt: at(0), endedAt: null }],
    });
    renderRoutes([{ path: '/', element: <TranscriptPanel meetingId="m1" /> }], { fake, session: fakeSession() });
    expect((await screen.findByTestId('transcript-gap')).textContent).toMatch(/^Captions off since /);
  });
});
