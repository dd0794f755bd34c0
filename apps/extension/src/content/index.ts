import type { TranscriptLine } from '@mbox/shared';
import type {
  CaptureEndMessage,
  CaptureGapsMessage,
  CaptureHealth,
  CaptureHealthMessage,
  CaptureLinesMessage,
} from '../messages.js';
import { findCaptionRegion, readCaptionBlocks } from './dom.js';
import { CaptureHealthMonitor, hasUnreadableCaptions, type CaptureGap } from './health.js';
import {
  captionsButtonSaysOff,
  isInCall,
  isLeaveButtonClick,
  meetCodeFromPath,
  readParticipants,
  readSelfAvatar,
  readSelfName,
  titleFromDocumentTitle,
} from './page.js';
import { CaptionTracker, type SelfIdentity } from './tracker.js';

/**
 * Caption capture on meet.google.com. Reads the page only; every line goes to the service worker, which
 * owns the durable outbox and the network. Timers here may stop when the tab is discarded; nothing is
 * lost because every revision is handed to the worker within SEND_INTERVAL_MS.
 */

const POLL_MS = 1000;
const SCAN_DEBOUNCE_MS = 60;
const SEND_INTERVAL_MS = 500;
const HEARTBEAT_MS = 10_000;
/** call_end can vanish briefly while Meet re-renders its toolbar; only a lasting absence is a leave. */
const LEFT_AFTER_MS = 3000;
const SELF_NAME_KEY = 'mbox:self-name';
const SELF_AVATAR_KEY = 'mbox:self-avatar';

interface Session {
  sessionId: string;
  meetCode: string;
  startedAt: number;
}

const pageLoadId = crypto.randomUUID().slice(0, 8);
let session: Session | null = null;
let tracker: CaptionTracker | null = null;
let observedRegion: Element | null = null;
let observer: MutationObserver | null = null;
let scanTimer: ReturnType<typeof setTimeout> | undefined;
let notInCallSince: number | null = null;
let monitor: CaptureHealthMonitor | null = null;
/** The observed region shows text no selector could read (set by each scan). */
let unreadable = false;
let lastHealthKey = '';
let lastHealthSentAt = 0;
let accountName: string | undefined;
let self: SelfIdentity = { name: undefined, pageNames: [], avatar: undefined, others: [] };
const pending = new Map<string, TranscriptLine>();

/** The pre-join screen shows what the call may not; a reload keeps it through sessionStorage. */
function remembered(key: string, fromPage: string | undefined): string | undefined {
  if (fromPage) sessionStorage.setItem(key, fromPage);
  return fromPage ?? sessionStorage.getItem(key) ?? undefined;
}

/**
 * Who the user is, re-read on every poll rather than per caption mutation. Their lines are stored under
 * the name the handshake gave the extension (the Mbox account), else under Meet's display name.
 */
function refreshSelf(): void {
  const pageName = remembered(SELF_NAME_KEY, readSelfName(document));
  self = {
    name: accountName ?? pageName,
    pageNames: pageName ? [pageName] : [],
    avatar: remembered(SELF_AVATAR_KEY, readSelfAvatar(document)),
    others: readParticipants(document).filter((name) => name !== pageName),
  };
}

function setAccountName(account: unknown): void {
  const name = (account as { user?: { name?: string } } | undefined)?.user?.name;
  accountName = name || undefined;
  refreshSelf();
}

function send(message: CaptureLinesMessage | CaptureEndMessage | CaptureHealthMessage | CaptureGapsMessage): void {
  // The worker may be restarting or the extension reloaded; the next send carries the latest revisions.
  chrome.runtime.sendMessage(message).catch((error: unknown) => console.debug('[mbox] worker unreachable', error));
}

function meetingInfo(current: Session): CaptureLinesMessage['meeting'] {
  const meeting: CaptureLinesMessage['meeting'] = {
    sessionId: current.sessionId,
    meetCode: current.meetCode,
    startedAt: current.startedAt,
  };
  const title = titleFromDocumentTitle(document.title, current.meetCode);
  if (title) meeting.title = title;
  const participants = readParticipants(document, self.name);
  if (participants.length > 0) meeting.participants = participants;
  return meeting;
}

function flushLines(): void {
  if (!session || pending.size === 0) return;
  const lines = [...pending.values()];
  pending.clear();
  send({ type: 'capture-lines', meeting: meetingInfo(session), lines });
}

/** A reload in the same call continues the same session, so the meeting is not split in two. */
function sessionKey(meetCode: string): string {
  return `mbox:session:${meetCode}`;
}

function startSession(meetCode: string): void {
  const stored = sessionStorage.getItem(sessionKey(meetCode));
  const restored = stored ? (JSON.parse(stored) as Session) : null;
  session = restored ?? { sessionId: crypto.randomUUID(), meetCode, startedAt: Date.now() };
  sessionStorage.setItem(sessionKey(meetCode), JSON.stringify(session));
  tracker = new CaptionTracker({
    idPrefix: pageLoadId,
    now: () => Date.now(),
    self: () => self,
    onLine: (line) => pending.set(line.captionId, line),
  });
  monitor = new CaptureHealthMonitor(pageLoadId);
  detachObserver();
  reportHealth(true);
}

/** Gaps opened or closed go to the worker's outbox like lines. */
function reportGaps(gaps: CaptureGap[]): void {
  if (session && gaps.length > 0) send({ type: 'capture-gaps', meeting: meetingInfo(session), gaps });
}

function endSession(): void {
  if (!session) return;
  scanNow();
  tracker?.finalizeAll();
  flushLines();
  reportGaps(monitor?.finish(Date.now()) ?? []);
  monitor = null;
  send({ type: 'capture-end', sessionId: session.sessionId, finishedAt: Date.now() });
  sessionStorage.removeItem(sessionKey(session.meetCode));
  session = null;
  tracker = null;
  detachObserver();
  reportHealth(true);
}

function detachObserver(): void {
  observer?.disconnect();
  observer = null;
  observedRegion = null;
}

function scan(): void {
  scanTimer = undefined;
  if (!tracker || !observedRegion) return;
  const blocks = readCaptionBlocks(observedRegion);
  unreadable = hasUnreadableCaptions(observedRegion, blocks);
  tracker.update(blocks);
}

function scheduleScan(): void {
  scanTimer ??= setTimeout(scan, SCAN_DEBOUNCE_MS);
}

/**
 * Before finalising, words Meet showed inside the debounce window must still be read — from the
 * region node shown now: Meet may have replaced it since the last poll.
 */
function scanNow(): void {
  clearTimeout(scanTimer);
  if (tracker) attachRegion();
  scan();
}

/**
 * Meet replaces the region node on layout changes and removes it when captions go off; follow whichever
 * node is current. The node let go still shows its last words, which the debounced scan may not have read
 * yet: they are read from it first (with captions off, nowhere else shows them).
 */
function attachRegion(): void {
  const region = findCaptionRegion(document);
  if (region === observedRegion) return;
  if (observedRegion) {
    clearTimeout(scanTimer);
    scan();
  }
  detachObserver();
  if (!region) return;
  observedRegion = region;
  observer = new MutationObserver(scheduleScan);
  observer.observe(region, { childList: true, subtree: true, characterData: true });
  scan();
}

function health(now: number): CaptureHealth {
  return {
    sessionId: session?.sessionId ?? null,
    meetCode: meetCodeFromPath(location.pathname),
    inCall: session != null,
    regionFound: observedRegion != null,
    captionsOff: captionsButtonSaysOff(document),
    lastLineAt: tracker?.lastLineAt ?? null,
    gapSince: monitor?.current?.startedAt ?? null,
    gapKind: monitor?.current?.kind ?? null,
    unreadable: observedRegion != null && unreadable,
    gaps: monitor?.gaps ?? [],
    updatedAt: now,
  };
}

function reportHealth(force = false): void {
  const now = Date.now();
  const current = health(now);
  const key = JSON.stringify({ ...current, updatedAt: 0 });
  if (!force && key === lastHealthKey && now - lastHealthSentAt < HEARTBEAT_MS) return;
  lastHealthKey = key;
  lastHealthSentAt = now;
  send({ type: 'capture-health', health: current, meeting: session ? meetingInfo(session) : null });
}

function poll(): void {
  const now = Date.now();
  refreshSelf();
  const code = meetCodeFromPath(location.pathname);
  if (session && session.meetCode !== code) endSession();

  if (code && isInCall(document)) {
    notInCallSince = null;
    if (!session) startSession(code);
  } else if (session) {
    notInCallSince ??= now;
    if (now - notInCallSince >= LEFT_AFTER_MS) endSession();
  }

  if (session && tracker) {
    attachRegion();
    tracker.tick();
    const signals = { inCall: true, captionsOff: captionsButtonSaysOff(document), regionFound: observedRegion != null, unreadable, lastLineAt: tracker.lastLineAt ?? null };
    reportGaps(monitor?.update(signals, now) ?? []);
  }
  reportHealth();
}

function init(): void {
  chrome.storage.local.get('account').then((items) => setAccountName(items['account']), () => undefined);
  // Signing in (or switching account) while in the call names the user's next lines.
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && changes['account']) setAccountName(changes['account'].newValue);
  });
  // Leaving tears the call UI down at once; finalize before the blocks disappear.
  document.addEventListener('click', (event) => {
    if (session && isLeaveButtonClick(event.target)) endSession();
  }, true);
  // A closing or reloading tab takes the caption blocks with it: their lines are final. The worker ends
  // the meeting on tab close; a reload continues the session with new blocks.
  window.addEventListener('pagehide', () => {
    scanNow();
    tracker?.finalizeAll();
    flushLines();
    // A reload starts a new monitor: the gap in progress ends here, and reopens if its cause remains.
    reportGaps(monitor?.finish(Date.now()) ?? []);
  });
  setInterval(poll, POLL_MS);
  setInterval(flushLines, SEND_INTERVAL_MS);
  poll();
}

// The worker injects this script into Meet tabs open at install time, which may already run it.
const scope = window as unknown as Record<string, unknown>;
if (!scope['__mboxCapture']) {
  scope['__mboxCapture'] = true;
  init();
}
