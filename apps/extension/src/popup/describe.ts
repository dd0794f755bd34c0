import { captureGapText, DEFAULT_SERVER_ORIGINS } from '@mbox/shared';
import type { CaptureHealth, PopupState } from '../messages.js';

/** What the popup shows for a state: plain texts and tones, so the rules are tested without a DOM. */

export type Tone = 'good' | 'bad' | 'warn' | 'muted';
export interface Shown {
  text: string;
  tone: Tone;
}

export interface PopupView {
  connection: Shown;
  user: Shown;
  sync: Shown;
  meeting: Shown;
  /** Null outside a call: the capture rows are hidden. */
  capture: { captions: Shown; region: Shown; lastLine: Shown; lines: Shown } | null;
  alert: string;
  gaps: string[];
  outbox: Shown;
  /** Empty text when nothing is set aside or held (the Retry and Discard buttons are hidden then). */
  setAsides: Shown;
  /** Under the Server field: which pages may sign the extension in, or which page was ignored. */
  serverHint: Shown;
}

const clock = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const hhmm = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function ago(ms: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ago` : `${Math.floor(minutes / 60)} h ${minutes % 60} min ago`;
}

function healthAlert(health: CaptureHealth, now: number): string {
  if (health.unreadable || health.gapKind === 'capture-broken') {
    return "Mbox cannot read Meet's captions: Meet's page has changed. This part of the meeting is not being recorded.";
  }
  switch (health.gapKind) {
    case 'captions-off':
      return 'Captions are off: turn on captions (CC) in Meet to record the transcript.';
    case 'region-missing':
      return 'Meet shows no captions: turn on captions (CC) in Meet to record the transcript.';
    case 'no-captions':
      return health.gapSince === null ? '' : `No captions since ${ago(health.gapSince, now).replace(' ago', '')}: is anyone speaking?`;
    default:
      return health.captionsOff ? 'Captions are off: turn on captions (CC) in Meet to record the transcript.' : '';
  }
}

export function describePopup(state: PopupState, now: number): PopupView {
  const { account, health } = state;
  const connection: Shown = !account
    ? { text: 'Signed out', tone: 'bad' }
    : account.rejected
      ? { text: 'Sign-in expired', tone: 'bad' }
      : state.lastError
        ? { text: 'Offline, retrying', tone: 'warn' }
        : { text: 'Connected', tone: 'good' };

  const user: Shown = !account
    ? { text: 'Signed out. Open the Mbox web app and sign in: it connects the extension.', tone: 'bad' }
    : account.rejected
      ? {
          text: `Signed out: the server no longer accepts the token of ${account.user.email || account.user.name}. Sign in again in the web app.`,
          tone: 'bad',
        }
      : { text: `Signed in as ${account.user.name || account.user.email}`, tone: 'good' };

  const retry = state.lastError && state.nextRetryAt ? `${state.lastError}; next try at ${clock(state.nextRetryAt)}.` : null;
  const sync: Shown = retry
    ? { text: retry, tone: 'bad' }
    : { text: state.lastSentAt ? `Last delivered to ${state.serverOrigin ?? 'the server'} at ${clock(state.lastSentAt)}.` : 'Nothing delivered yet.', tone: 'muted' };

  let meeting: Shown;
  let capture: PopupView['capture'] = null;
  if (!health?.meetCode) meeting = { text: 'Not a Google Meet call.', tone: 'muted' };
  else if (!health.inCall) meeting = { text: `Meeting ${health.meetCode}: waiting for you to join the call.`, tone: 'muted' };
  else {
    const title = state.meeting?.title;
    meeting = { text: title ? `${title} (${health.meetCode})` : `Meeting ${health.meetCode}`, tone: 'good' };
    capture = {
      captions: health.captionsOff
        ? { text: 'Off', tone: 'bad' }
        : health.regionFound
          ? { text: 'On', tone: 'good' }
          : { text: 'Not shown', tone: 'warn' },
      region: !health.regionFound
        ? { text: 'Not found', tone: health.captionsOff ? 'muted' : 'warn' }
        : health.unreadable
          ? { text: 'Found, but unreadable', tone: 'bad' }
          : { text: 'Found', tone: 'good' },
      lastLine: health.lastLineAt ? { text: ago(health.lastLineAt, now), tone: 'muted' } : { text: 'None yet', tone: 'muted' },
      lines: !state.meeting
        ? { text: 'None sent yet', tone: 'muted' }
        : state.meeting.full
          ? { text: `${plural(state.meeting.linesSent, 'line')} sent, ${state.meeting.pendingLines} kept: the server takes no more`, tone: 'bad' }
          : { text: `${plural(state.meeting.linesSent, 'line')} sent, ${state.meeting.pendingLines} waiting`, tone: 'muted' },
    };
  }

  const waiting = [
    state.pendingLines ? plural(state.pendingLines, 'line') : '',
    state.pendingEvents ? plural(state.pendingEvents, 'gap report') : '',
    state.pendingEnds ? plural(state.pendingEnds, 'meeting end') : '',
  ].filter(Boolean);
  const { setAsides } = state;
  const setAsideItems = [
    setAsides.lines ? plural(setAsides.lines, 'line') : '',
    setAsides.events ? plural(setAsides.events, 'gap report') : '',
    setAsides.ends ? plural(setAsides.ends, 'meeting end') : '',
  ].filter(Boolean);
  const refusedBatches = setAsides.batches === 1 ? 'a batch' : `${setAsides.batches} batches`;
  const { held } = state;
  const setAsideTexts = [
    setAsides.batches
      ? `Set aside: ${setAsideItems.join(', ')}. The server refused ${refusedBatches}${setAsides.lastReason ? ` (${setAsides.lastReason})` : ''}; kept until you retry or discard.`
      : '',
    held.lines
      ? `Kept, not sent: ${plural(held.lines, 'line')} of a meeting the server takes no more lines of${held.reason ? ` (${held.reason})` : ''}; sent again when you retry.`
      : '',
  ].filter(Boolean);
  const fullAlert = state.meeting?.full
    ? `The server takes no more lines of this meeting: ${state.meeting.full}. New lines are kept in the extension.`
    : '';

  return {
    connection,
    user,
    sync,
    meeting,
    capture,
    alert: health?.inCall ? healthAlert(health, now) || fullAlert : '',
    gaps: health?.inCall ? health.gaps.map((gap) => captureGapText({ ...gap, endedAt: gap.endedAt ?? null }, hhmm)) : [],
    outbox: waiting.length ? { text: `Waiting to be sent: ${waiting.join(', ')}.`, tone: 'muted' } : { text: 'Everything is sent.', tone: 'good' },
    setAsides: { text: setAsideTexts.join(' '), tone: setAsideTexts.length ? 'warn' : 'muted' },
    serverHint: state.foreignOrigin
      ? { text: `Ignored a sign-in from ${state.foreignOrigin}: it is not the server set here. If that is your Mbox, enter it above and Save.`, tone: 'warn' }
      : state.serverOrigin
        ? { text: `Only ${state.serverOrigin} can sign the extension in.`, tone: 'muted' }
        : { text: `No server set: only ${DEFAULT_SERVER_ORIGINS.join(' or ')} can sign the extension in.`, tone: 'muted' },
  };
}
