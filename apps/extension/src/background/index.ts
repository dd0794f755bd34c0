import { isHttpOrigin, normalizeOrigin } from '@mbox/shared';
import {
  runtimeMessageSchema,
  captureHealthSchema,
  type CaptureHealth,
  type PopupState,
  type RuntimeMessage,
  type SetServerOriginReply,
} from '../messages.js';
import { AccountStore, chromeLocalStore, pageOriginOf } from './account.js';
import { Outbox, type SetAside } from './outbox.js';
import { Sender, type RetrySetAsidesResult } from './sender.js';

/**
 * The service worker: owns the token, the durable outbox and every network call. Chrome stops it after
 * ~30 s without events and its timers die with it, so all state lives in IndexedDB / chrome.storage
 * and alarms wake it for retries, deferred meeting ends and the sweep of abandoned sessions.
 */

const FLUSH_ALARM = 'mbox-flush';
const SWEEP_ALARM = 'mbox-sweep';
const FLUSH_DEBOUNCE_MS = 1000;
/** A session whose tab is gone (or left Meet) and that has been silent this long ends at its last sign of life. */
const ABANDONED_AFTER_MS = 60_000;
const BRIDGE_SCRIPT_ID = 'mbox-bridge-server';
const STATIC_BRIDGE_HOSTS = new Set(['localhost', '127.0.0.1']);
const MEET_URL = /^https:\/\/meet\.google\.com\/[a-z]{3}-[a-z]{4}-[a-z]{3}(?:[?#]|$)/;
/** chrome.storage.session: the last page refused by the handshake rule, for the popup. */
const FOREIGN_ORIGIN_KEY = 'foreignOrigin';

const accounts = new AccountStore(chromeLocalStore());
let outboxPromise: Promise<Outbox> | null = null;
function outbox(): Promise<Outbox> {
  outboxPromise ??= Outbox.open();
  return outboxPromise;
}

let senderInstance: Sender | null = null;
async function sender(): Promise<Sender> {
  senderInstance ??= new Sender({
    outbox: await outbox(),
    fetch: (input, init) => fetch(input, init),
    getAccount: () => accounts.get(),
    rejectAccount: () => accounts.reject(),
    now: () => Date.now(),
    random: () => Math.random(),
    log: (message) => console.warn('[mbox]', message),
  });
  return senderInstance;
}

let flushTimer: ReturnType<typeof setTimeout> | undefined;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

function scheduleFlush(delay = FLUSH_DEBOUNCE_MS): void {
  flushTimer ??= setTimeout(() => {
    flushTimer = undefined;
    void runFlush(false);
  }, delay);
}

async function runFlush(force: boolean): Promise<void> {
  const result = await (await sender()).flush(force);
  if (result.status === 'retry') {
    // The alarm survives the worker; the timer gives retries sooner than the alarms' 30 s minimum.
    await chrome.alarms.create(FLUSH_ALARM, { when: result.retryAt });
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => void runFlush(false), Math.max(0, result.retryAt - Date.now()));
  } else {
    await chrome.alarms.clear(FLUSH_ALARM);
  }
}

function healthKey(tabId: number): string {
  return `health:${tabId}`;
}

async function tabHealth(tabId: number | null): Promise<CaptureHealth | null> {
  if (tabId === null) return null;
  const key = healthKey(tabId);
  const parsed = captureHealthSchema.safeParse((await chrome.storage.session.get(key))[key]);
  return parsed.success ? parsed.data : null;
}

/** Lines count once per caption: a caption refused in two revisions is one line set aside. */
function setAsideSummary(entries: SetAside[]): PopupState['setAsides'] {
  const captions = new Set<string>();
  const summary: PopupState['setAsides'] = { batches: entries.length, lines: 0, events: 0, ends: 0, lastReason: entries.at(-1)?.reason ?? null };
  for (const { sessionId, batch } of entries) {
    if (batch.kind === 'lines') for (const line of batch.lines) captions.add(JSON.stringify([sessionId, line.captionId]));
    else if (batch.kind === 'events') summary.events += batch.events.length;
    else summary.ends += 1;
  }
  summary.lines = captions.size;
  return summary;
}

async function foreignOrigin(): Promise<string | null> {
  const value = (await chrome.storage.session.get(FOREIGN_ORIGIN_KEY))[FOREIGN_ORIGIN_KEY];
  return typeof value === 'string' ? value : null;
}

async function popupState(tabId: number | null): Promise<PopupState> {
  const box = await outbox();
  const [account, serverOrigin, pendingLines, pendingEvents, sessions, retry, health, setAsides, lastSentAt, foreign, held] = await Promise.all([
    accounts.get(),
    accounts.serverOrigin(),
    box.countLines(),
    box.countEvents(),
    box.sessions(),
    box.retryState(),
    tabHealth(tabId),
    box.setAsides(),
    box.lastSentAt(),
    foreignOrigin(),
    box.heldLines(),
  ]);
  const session = health?.sessionId ? sessions.find((s) => s.sessionId === health.sessionId) : undefined;
  return {
    account: account ? { user: account.user, rejected: account.rejected } : null,
    serverOrigin,
    meeting: session
      ? {
          sessionId: session.sessionId,
          meetCode: session.meeting.meetCode,
          title: session.meeting.title ?? null,
          linesSent: session.sentCaptionIds?.length ?? 0,
          pendingLines: await box.countLines(session.sessionId),
          full: session.full ?? null,
        }
      : null,
    pendingLines,
    pendingEvents,
    pendingEnds: sessions.filter((s) => s.finishedAt !== null).length,
    setAsides: setAsideSummary(setAsides),
    held,
    foreignOrigin: foreign !== serverOrigin ? foreign : null,
    lastSentAt,
    lastError: retry?.lastError ?? null,
    nextRetryAt: retry?.nextAt ?? null,
    health,
  };
}

function originPattern(origin: string): string {
  return `${origin}/*`;
}

/** Self-hosted servers get the bridge at run time, once the user granted access to their origin. */
async function syncBridgeRegistration(): Promise<void> {
  const origin = await accounts.serverOrigin();
  const registered = await chrome.scripting.getRegisteredContentScripts({ ids: [BRIDGE_SCRIPT_ID] });
  if (registered.length > 0) await chrome.scripting.unregisterContentScripts({ ids: [BRIDGE_SCRIPT_ID] });
  if (!origin || STATIC_BRIDGE_HOSTS.has(new URL(origin).hostname)) return;
  const pattern = originPattern(origin);
  if (!(await chrome.permissions.contains({ origins: [pattern] }))) return;
  await chrome.scripting.registerContentScripts([
    { id: BRIDGE_SCRIPT_ID, matches: [pattern], js: ['bridge.js'], runAt: 'document_start', persistAcrossSessions: true },
  ]);
  // Pages already open would otherwise wait for a reload to find the extension.
  await injectIntoOpenTabs(pattern, 'bridge.js');
}

async function injectIntoOpenTabs(pattern: string, file: string): Promise<void> {
  for (const tab of await chrome.tabs.query({ url: pattern })) {
    if (tab.id === undefined) continue;
    await chrome.scripting.executeScript({ target: { tabId: tab.id }, files: [file] }).catch((error: unknown) => {
      console.warn('[mbox] could not inject', file, 'into tab', tab.id, error);
    });
  }
}

async function setServerOrigin(input: string): Promise<SetServerOriginReply> {
  const origin = normalizeOrigin(input);
  if (!origin || !isHttpOrigin(origin)) return { ok: false, error: 'Enter an address such as https://mbox.example.com' };
  await accounts.setServerOrigin(origin);
  await syncBridgeRegistration();
  return { ok: true, serverOrigin: origin };
}

/** Sessions whose tab closed or left Meet without an end message (crash, worker asleep at tabs.onRemoved). */
async function sweepAbandonedSessions(): Promise<void> {
  const box = await outbox();
  const now = Date.now();
  for (const session of await box.sessions()) {
    if (session.finishedAt !== null || now - session.lastSeenAt < ABANDONED_AFTER_MS) continue;
    const tab = session.tabId === null ? null : await chrome.tabs.get(session.tabId).catch(() => null);
    if (tab?.url && MEET_URL.test(tab.url)) continue;
    await box.markEnded(session.sessionId, session.lastSeenAt);
  }
}

async function retrySetAsides(): Promise<RetrySetAsidesResult> {
  const result = await (await sender()).retrySetAsides();
  // What waited behind a batch refused again still goes out.
  await runFlush(false);
  return result;
}

async function handleMessage(message: RuntimeMessage, from: chrome.runtime.MessageSender): Promise<unknown> {
  const tabId = from.tab?.id ?? null;
  // The popup, or the popup page opened in a tab; never a content script (its URL is the web page's).
  const fromExtensionPage = from.id === chrome.runtime.id && (from.url ?? '').startsWith(chrome.runtime.getURL(''));
  switch (message.type) {
    case 'capture-lines': {
      await (await outbox()).putLines(message.meeting, message.lines, tabId, Date.now());
      scheduleFlush();
      return { ok: true };
    }
    case 'capture-gaps': {
      await (await outbox()).putEvents(message.meeting, message.gaps, tabId, Date.now());
      scheduleFlush();
      return { ok: true };
    }
    case 'capture-end': {
      if (await (await outbox()).markEnded(message.sessionId, message.finishedAt)) scheduleFlush();
      return { ok: true };
    }
    case 'capture-health': {
      if (tabId === null) return { ok: false };
      await chrome.storage.session.set({ [healthKey(tabId)]: message.health });
      if (message.meeting) await (await outbox()).touchSession(message.meeting, tabId, Date.now());
      return { ok: true };
    }
    case 'bridge-handshake': {
      // Chrome's record of the sending page decides, never what the page or the bridge claims.
      const origin = pageOriginOf(from);
      if (origin === null || origin !== message.origin) {
        return { mboxHandshake: true, action: 'set-user-ack', ok: false, error: 'origin mismatch' };
      }
      const { reply, changed, foreign } = await accounts.handleHandshake(origin, message.request, chrome.runtime.getManifest().version);
      if (foreign) await chrome.storage.session.set({ [FOREIGN_ORIGIN_KEY]: origin });
      if (changed) {
        await syncBridgeRegistration();
        void runFlush(true);
      }
      return reply;
    }
    case 'popup-state':
      return fromExtensionPage ? popupState(message.tabId) : null;
    case 'set-server-origin':
      return fromExtensionPage ? setServerOrigin(message.serverOrigin) : { ok: false, error: 'not allowed' };
    case 'flush-now':
      if (fromExtensionPage) await runFlush(true);
      return fromExtensionPage ? popupState(null) : null;
    case 'retry-set-asides':
      return fromExtensionPage ? retrySetAsides() : null;
    case 'discard-set-asides':
      if (fromExtensionPage) {
        const box = await outbox();
        await box.clearSetAsides();
        await box.discardHeldLines();
      }
      return fromExtensionPage ? { ok: true } : null;
  }
}

chrome.runtime.onMessage.addListener((raw: unknown, from, sendResponse) => {
  const parsed = runtimeMessageSchema.safeParse(raw);
  if (!parsed.success) {
    console.warn('[mbox] ignored malformed message', parsed.error.message);
    return false;
  }
  handleMessage(parsed.data, from).then(sendResponse, (error: unknown) => {
    console.error('[mbox] message failed', parsed.data.type, error);
    sendResponse(null);
  });
  return true;
});

chrome.tabs.onRemoved.addListener((tabId) => {
  void (async () => {
    await chrome.storage.session.remove(healthKey(tabId));
    const ended = await (await outbox()).endSessionsOfTab(tabId, Date.now());
    if (ended.length > 0) await runFlush(false);
  })();
});

chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === FLUSH_ALARM) void runFlush(false);
  if (alarm.name === SWEEP_ALARM) void sweepAbandonedSessions().then(() => runFlush(false));
});

chrome.permissions.onAdded.addListener(() => void syncBridgeRegistration());
chrome.permissions.onRemoved.addListener(() => void syncBridgeRegistration());

chrome.runtime.onInstalled.addListener(() => {
  void (async () => {
    await syncBridgeRegistration();
    // Static content scripts only reach pages loaded after install or update; catch up open ones.
    await injectIntoOpenTabs('https://meet.google.com/*', 'content.js');
    await injectIntoOpenTabs('http://localhost/*', 'bridge.js');
    await injectIntoOpenTabs('http://127.0.0.1/*', 'bridge.js');
  })();
});

// Every worker start (install, browser start, wake-up) makes sure the sweep runs and pending work moves.
void chrome.alarms.get(SWEEP_ALARM).then((existing) => {
  if (!existing) return chrome.alarms.create(SWEEP_ALARM, { periodInMinutes: 1 });
});
scheduleFlush();

/** Handle for end-to-end tests through the service worker target (`worker.evaluate(() => mboxDebug.state())`). */
const debugHandle = {
  state: (tabId: number | null = null) => popupState(tabId),
  flush: () => runFlush(true).then(() => popupState(null)),
};
Object.assign(globalThis, { mboxDebug: debugHandle });
