import { normalizeOrigin } from '@mbox/shared';
import type { RetrySetAsidesResult } from '../background/sender.js';
import type { PopupState, SetServerOriginReply } from '../messages.js';
import { describePopup, type Shown } from './describe.js';

/**
 * Popup: connection, account, the meeting and capture health of the tab it was opened on, what waits in
 * the outbox. It re-reads the worker's state every second while open, so it updates live.
 * `popup.html?tab=<id>` shows another tab (tests open the popup as a page).
 */

const REFRESH_MS = 1000;

function el(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (!found) throw new Error(`popup.html lacks #${id}`);
  return found;
}

function show(id: string, shown: Shown | string): void {
  const node = el(id);
  const { text, tone } = typeof shown === 'string' ? { text: shown, tone: '' } : shown;
  node.textContent = text;
  node.classList.remove('good', 'bad', 'warn', 'muted');
  if (tone) node.classList.add(tone);
}

let serverEdited = false;

function render(state: PopupState): void {
  const view = describePopup(state, Date.now());
  show('connection', view.connection);
  show('user', view.user);
  show('sync', view.sync);
  show('meeting', view.meeting);
  el('capture').hidden = view.capture === null;
  if (view.capture) {
    show('captions', view.capture.captions);
    show('region', view.capture.region);
    show('last-line', view.capture.lastLine);
    show('lines', view.capture.lines);
  }
  show('health-alert', view.alert);
  el('gaps-box').hidden = view.gaps.length === 0;
  el('gaps').replaceChildren(...view.gaps.map((text) => Object.assign(document.createElement('li'), { textContent: text })));
  show('outbox', view.outbox);
  show('set-asides', view.setAsides);
  el('set-aside-box').hidden = view.setAsides.text === '';
  show('server-hint', view.serverHint);
  const input = el('server') as HTMLInputElement;
  if (!serverEdited) input.value = state.serverOrigin ?? '';
}

async function shownTabId(): Promise<number | null> {
  const asked = Number(new URLSearchParams(location.search).get('tab'));
  if (Number.isInteger(asked) && asked > 0) return asked;
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab?.id ?? null;
}

async function refresh(): Promise<void> {
  const state = (await chrome.runtime.sendMessage({ type: 'popup-state', tabId: await shownTabId() })) as PopupState | null;
  if (state) render(state);
}

async function saveServer(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const origin = normalizeOrigin((el('server') as HTMLInputElement).value);
  if (!origin) {
    show('server-note', { text: 'Enter an address such as https://mbox.example.com', tone: 'bad' });
    return;
  }
  // Must run within the click: Chrome only shows the permission prompt for a user gesture.
  const granted = await chrome.permissions.request({ origins: [`${origin}/*`] });
  if (!granted) {
    show('server-note', { text: `Mbox needs access to ${origin} to send transcripts there.`, tone: 'bad' });
    return;
  }
  const reply = (await chrome.runtime.sendMessage({ type: 'set-server-origin', serverOrigin: origin })) as SetServerOriginReply | null;
  if (!reply?.ok) {
    show('server-note', { text: reply?.error ?? 'Could not save the server.', tone: 'bad' });
    return;
  }
  serverEdited = false;
  show('server-note', { text: `Saved. Open ${reply.serverOrigin ?? origin} and sign in to connect.`, tone: 'muted' });
  await refresh();
}

el('server').addEventListener('input', () => {
  serverEdited = true;
});
el('server-form').addEventListener('submit', (event) => void saveServer(event as SubmitEvent));
function retryNote(result: RetrySetAsidesResult | null): Shown {
  if (!result) return { text: 'Could not reach the extension.', tone: 'bad' };
  const done = [
    result.delivered ? `${result.delivered} delivered` : '',
    result.refused ? `${result.refused} refused again` : '',
  ].filter(Boolean);
  const summary = done.length ? `${done.join(', ')}.` : '';
  return result.error ? { text: `${summary} Stopped: ${result.error}.`.trim(), tone: 'bad' } : { text: summary || 'Nothing to retry.', tone: 'muted' };
}

function confirmingDiscard(on: boolean): void {
  el('discard-confirm').hidden = !on;
  el('discard-set-asides').hidden = on;
  el('retry-set-asides').hidden = on;
}

el('retry-set-asides').addEventListener('click', () => {
  show('set-aside-note', { text: 'Sending…', tone: 'muted' });
  void chrome.runtime.sendMessage({ type: 'retry-set-asides' }).then(async (result: RetrySetAsidesResult | null) => {
    show('set-aside-note', retryNote(result));
    await refresh();
  });
});
el('discard-set-asides').addEventListener('click', () => {
  show('set-aside-note', '');
  confirmingDiscard(true);
});
el('discard-no').addEventListener('click', () => confirmingDiscard(false));
el('discard-yes').addEventListener('click', () => {
  void chrome.runtime.sendMessage({ type: 'discard-set-asides' }).then(async () => {
    confirmingDiscard(false);
    show('set-aside-note', { text: 'Discarded.', tone: 'muted' });
    await refresh();
  });
});
el('send-now').addEventListener('click', () => {
  void chrome.runtime.sendMessage({ type: 'flush-now' }).then(refresh);
});

void refresh();
setInterval(() => void refresh(), REFRESH_MS);
