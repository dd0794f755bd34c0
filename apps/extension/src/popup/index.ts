import { normalizeOrigin } from '@mbox/shared';
import type { CaptureHealth, PopupState, SetServerOriginReply } from '../messages.js';

/** Popup: who is signed in, where transcripts go, whether capture works in this tab, what waits to be sent. */

function el(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (!found) throw new Error(`popup.html lacks #${id}`);
  return found;
}

function show(id: string, text: string, tone: 'good' | 'bad' | 'muted' | '' = ''): void {
  const node = el(id);
  node.textContent = text;
  node.className = tone;
}

function time(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

function describeHealth(health: CaptureHealth | null): [string, 'good' | 'bad' | 'muted'] {
  if (!health) return ['Not a Google Meet call.', 'muted'];
  if (!health.inCall) return [health.meetCode ? 'Waiting for you to join the call.' : 'Not a Google Meet call.', 'muted'];
  if (!health.regionFound) {
    return health.captionsOff || health.gapSince !== null
      ? ['Captions are off: turn on captions (CC) in Meet to record the transcript.', 'bad']
      : ['Looking for captions…', 'muted'];
  }
  return [health.lastLineAt ? `Capturing captions. Last line at ${time(health.lastLineAt)}.` : 'Captions on; nobody has spoken yet.', 'good'];
}

let serverEdited = false;

function render(state: PopupState): void {
  if (!state.account) show('user', 'Signed out. Open the Mbox web app and sign in.', 'bad');
  else if (state.account.rejected) show('user', `Signed out: the server no longer accepts the token of ${state.account.user.email || state.account.user.name}. Sign in again in the web app.`, 'bad');
  else show('user', `Signed in as ${state.account.user.name || state.account.user.email}`, 'good');

  const input = el('server') as HTMLInputElement;
  if (!serverEdited) input.value = state.serverOrigin ?? '';

  const [health, tone] = describeHealth(state.health);
  show('health', health, tone);

  const pending = `${state.pendingLines} line(s) and ${state.pendingEnds} meeting end(s) waiting to be sent.`;
  const retry = state.lastError && state.nextRetryAt ? ` ${state.lastError}; next try at ${time(state.nextRetryAt)}.` : '';
  show('outbox', state.pendingLines + state.pendingEnds === 0 ? 'Everything is sent.' : pending + retry, retry ? 'bad' : 'muted');
}

async function activeTabId(): Promise<number | null> {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab?.id ?? null;
}

async function refresh(): Promise<void> {
  const state = (await chrome.runtime.sendMessage({ type: 'popup-state', tabId: await activeTabId() })) as PopupState | null;
  if (state) render(state);
}

async function saveServer(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const origin = normalizeOrigin((el('server') as HTMLInputElement).value);
  if (!origin) {
    show('server-note', 'Enter an address such as https://mbox.example.com', 'bad');
    return;
  }
  // Must run within the click: Chrome only shows the permission prompt for a user gesture.
  const granted = await chrome.permissions.request({ origins: [`${origin}/*`] });
  if (!granted) {
    show('server-note', `Mbox needs access to ${origin} to send transcripts there.`, 'bad');
    return;
  }
  const reply = (await chrome.runtime.sendMessage({ type: 'set-server-origin', serverOrigin: origin })) as SetServerOriginReply | null;
  if (!reply?.ok) {
    show('server-note', reply?.error ?? 'Could not save the server.', 'bad');
    return;
  }
  serverEdited = false;
  show('server-note', `Saved. Open ${reply.serverOrigin ?? origin} and sign in to connect.`, 'muted');
  await refresh();
}

el('server').addEventListener('input', () => {
  serverEdited = true;
});
el('server-form').addEventListener('submit', (event) => void saveServer(event as SubmitEvent));
el('send-now').addEventListener('click', () => {
  void chrome.runtime.sendMessage({ type: 'flush-now' }).then(refresh);
});

void refresh();
setInterval(() => void refresh(), 2000);
