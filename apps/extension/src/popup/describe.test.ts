import { describe, expect, it } from 'vitest';
import type { CaptureHealth, PopupState } from '../messages.js';
import { ago, describePopup } from './describe.js';

const now = Date.UTC(2026, 10, 20, 10, 30);
const health: CaptureHealth = {
  sessionId: 's1',
  meetCode: 'abc-defg-hij',
  inCall: true,
  regionFound: true,
  captionsOff: false,
  lastLineAt: now - 12_000,
  gapSince: null,
  gapKind: null,
  unreadable: false,
  gaps: [],
  updatedAt: now,
};
const base: PopupState = {
  account: { user: { id: 'u1', email: 'ana@example.com', name: 'Ana' }, rejected: false },
  serverOrigin: 'http://127.0.0.1:4000',
  meeting: { sessionId: 's1', meetCode: 'abc-defg-hij', title: 'Sync', linesSent: 3, pendingLines: 1, full: null },
  pendingLines: 1,
  pendingEvents: 0,
  pendingEnds: 0,
  setAsides: { batches: 0, lines: 0, events: 0, ends: 0, lastReason: null },
  held: { lines: 0, reason: null },
  foreignOrigin: null,
  lastSentAt: now - 1000,
  lastError: null,
  nextRetryAt: null,
  health,
};

describe('describePopup', () => {
  it('shows a healthy capture: connected, captions on, lines sent', () => {
    const view = describePopup(base, now);
    expect(view.connection).toEqual({ text: 'Connected', tone: 'good' });
    expect(view.user.text).toBe('Signed in as Ana');
    expect(view.meeting.text).toBe('Sync (abc-defg-hij)');
    expect(view.capture?.captions.text).toBe('On');
    expect(view.capture?.region.text).toBe('Found');
    expect(view.capture?.lastLine.text).toBe('12 s ago');
    expect(view.capture?.lines.text).toBe('3 lines sent, 1 waiting');
    expect(view.alert).toBe('');
    expect(view.outbox.text).toBe('Waiting to be sent: 1 line.');
  });

  it('says signed out before the handshake, and offline while retrying', () => {
    expect(describePopup({ ...base, account: null }, now).connection.text).toBe('Signed out');
    const offline = describePopup({ ...base, lastError: 'server answered 503', nextRetryAt: now + 4000 }, now);
    expect(offline.connection.text).toBe('Offline, retrying');
    expect(offline.sync.text).toMatch(/^server answered 503; next try at /);
  });

  it('warns when captions are off and lists the gaps', () => {
    const off = describePopup(
      {
        ...base,
        health: {
          ...health,
          captionsOff: true,
          regionFound: false,
          gapKind: 'captions-off',
          gapSince: now - 60_000,
          gaps: [{ eventId: 'g1', kind: 'captions-off', startedAt: now - 60_000 }],
        },
      },
      now,
    );
    expect(off.capture?.captions).toEqual({ text: 'Off', tone: 'bad' });
    expect(off.alert).toMatch(/^Captions are off/);
    expect(off.gaps).toHaveLength(1);
    expect(off.gaps[0]).toMatch(/^Captions off since /);
  });

  it('reports broken capture and set-aside batches', () => {
    const broken = describePopup(
      {
        ...base,
        health: { ...health, unreadable: true },
        setAsides: { batches: 2, lines: 7, events: 1, ends: 0, lastReason: 'server refused (400)' },
      },
      now,
    );
    expect(broken.capture?.region.text).toBe('Found, but unreadable');
    expect(broken.alert).toMatch(/cannot read Meet's captions/);
    expect(broken.setAsides).toEqual({
      text: 'Set aside: 7 lines, 1 gap report. The server refused 2 batches (server refused (400)); kept until you retry or discard.',
      tone: 'warn',
    });
    expect(describePopup(base, now).setAsides.text).toBe('');
  });

  it("shows the server's message when it takes no more lines of the meeting, and the lines kept", () => {
    const reason =
      'server refused (413: Meeting too long: at most 50,000 lines per meeting (MAX_LINES_PER_MEETING); none of these lines was stored)';
    const view = describePopup(
      { ...base, meeting: { ...base.meeting!, pendingLines: 12, full: reason }, pendingLines: 12, held: { lines: 12, reason } },
      now,
    );
    expect(view.capture?.lines).toEqual({ text: '3 lines sent, 12 kept: the server takes no more', tone: 'bad' });
    expect(view.alert).toBe(`The server takes no more lines of this meeting: ${reason}. New lines are kept in the extension.`);
    expect(view.setAsides).toEqual({
      text: `Kept, not sent: 12 lines of a meeting the server takes no more lines of (${reason}); sent again when you retry.`,
      tone: 'warn',
    });
  });

  it('says which pages may sign the extension in, and names a page that was ignored', () => {
    expect(describePopup(base, now).serverHint.text).toBe('Only http://127.0.0.1:4000 can sign the extension in.');
    expect(describePopup({ ...base, serverOrigin: null }, now).serverHint.text).toBe(
      'No server set: only http://localhost:3000 or http://127.0.0.1:3000 can sign the extension in.',
    );
    expect(describePopup({ ...base, foreignOrigin: 'http://localhost:5555' }, now).serverHint).toEqual({
      text: 'Ignored a sign-in from http://localhost:5555: it is not the server set here. If that is your Mbox, enter it above and Save.',
      tone: 'warn',
    });
  });

  it('hides capture rows outside a call', () => {
    expect(describePopup({ ...base, health: null }, now).capture).toBeNull();
    expect(describePopup({ ...base, health: { ...health, inCall: false } }, now).meeting.text).toMatch(/waiting for you to join/);
  });
});

describe('ago', () => {
  it('counts seconds, then minutes, then hours', () => {
    expect(ago(now - 5_000, now)).toBe('5 s ago');
    expect(ago(now - 3 * 60_000, now)).toBe('3 min ago');
    expect(ago(now - 65 * 60_000, now)).toBe('1 h 5 min ago');
  });
});
