import type { CaptureEventKind } from '@mbox/shared';
import type { CaptionBlockSnapshot } from './dom.js';

/**
 * Capture health: turns what the Meet page shows into gaps in the transcript (captions off, caption
 * region missing, captions unreadable, no captions for a long time). Pure logic fed by the content
 * script's poll; every signal is language-independent (Material Symbols icon names, roles, structure,
 * whether lines arrive), never translated text.
 */

/** How long each condition must last before it counts as a gap; brief flickers while Meet re-renders do not. */
export const GAP_AFTER_MS: Record<CaptureEventKind, number> = {
  'captions-off': 2_000,
  'capture-broken': 5_000,
  'region-missing': 10_000,
  // No speaking indicator is read, so silence and lost captions look alike: only a long quiet counts.
  'no-captions': 5 * 60_000,
};

/** Worst first: when several conditions hold, the gap is named after the first. */
const PRIORITY: readonly CaptureEventKind[] = ['captions-off', 'capture-broken', 'region-missing', 'no-captions'];

/** Gaps kept for the popup; older ones are on the server. */
const RECENT_GAPS = 10;

/** The region's last two children are Meet controls, never captions (see dom.ts). */
const TRAILING_CONTROLS = 2;

export interface HealthSignals {
  inCall: boolean;
  /** Meet's captions button shows `closed_caption_off`. */
  captionsOff: boolean;
  regionFound: boolean;
  /** The region shows text, but no caption block could be read from it (Meet changed its DOM). */
  unreadable: boolean;
  /** When a caption line last changed; null before the first. */
  lastLineAt: number | null;
}

export interface CaptureGap {
  /** Stable id: the gap is reported open, then again closed, under this id. */
  eventId: string;
  kind: CaptureEventKind;
  startedAt: number;
  endedAt?: number;
}

/**
 * True when the caption region holds text but the selectors found no caption in it: capture is broken,
 * not idle. An empty region (nobody spoke yet) is not broken.
 */
export function hasUnreadableCaptions(region: Element, blocks: readonly CaptionBlockSnapshot[]): boolean {
  if (blocks.some((block) => block.text.length > 0)) return false;
  const content = Array.from(region.children).slice(0, -TRAILING_CONTROLS);
  return content.some((child) => (child.textContent ?? '').trim().length > 0);
}

export class CaptureHealthMonitor {
  private readonly since = new Map<CaptureEventKind | 'region-ok', number>();
  private open: CaptureGap | null = null;
  private readonly recent: CaptureGap[] = [];
  private counter = 0;

  constructor(private readonly idPrefix: string) {}

  /** The gap in progress, if any. */
  get current(): CaptureGap | null {
    return this.open;
  }

  /** The session's latest gaps, newest last (closed ones with their end). */
  get gaps(): CaptureGap[] {
    return [...this.recent];
  }

  /** Feeds one observation; returns the gaps opened or closed by it, to report. */
  update(signals: HealthSignals, now: number): CaptureGap[] {
    this.track(signals, now);
    const active = this.activeGap(signals, now);
    if (active?.kind === this.open?.kind) return [];
    const changed: CaptureGap[] = [];
    if (this.open) {
      const endedAt = this.endOf(this.open, signals, active ? Math.min(now, active.since) : now);
      changed.push(this.close(endedAt));
    }
    if (active) {
      const previousEnd = changed[0]?.endedAt ?? -Infinity;
      this.counter += 1;
      this.open = { eventId: `${this.idPrefix}-gap${this.counter}`, kind: active.kind, startedAt: Math.max(active.since, previousEnd) };
      this.remember(this.open);
      changed.push({ ...this.open });
    }
    return changed;
  }

  /** The session ends: a gap in progress ends with it. */
  finish(now: number): CaptureGap[] {
    return this.open ? [this.close(Math.max(now, this.open.startedAt))] : [];
  }

  private track(s: HealthSignals, now: number): void {
    const conditions: Record<CaptureEventKind | 'region-ok', boolean> = {
      'captions-off': s.inCall && s.captionsOff,
      'capture-broken': s.inCall && s.regionFound && s.unreadable,
      'region-missing': s.inCall && !s.captionsOff && !s.regionFound,
      'region-ok': s.inCall && s.regionFound && !s.unreadable && !s.captionsOff,
      // Its start is computed in activeGap from the last line.
      'no-captions': false,
    };
    for (const [kind, holds] of Object.entries(conditions) as [CaptureEventKind | 'region-ok', boolean][]) {
      if (!holds) this.since.delete(kind);
      else if (!this.since.has(kind)) this.since.set(kind, now);
    }
  }

  private activeGap(s: HealthSignals, now: number): { kind: CaptureEventKind; since: number } | null {
    for (const kind of PRIORITY) {
      let since = this.since.get(kind);
      if (kind === 'no-captions') {
        const regionOk = this.since.get('region-ok');
        since = regionOk === undefined ? undefined : Math.max(regionOk, s.lastLineAt ?? -Infinity);
      }
      if (since !== undefined && now - since >= GAP_AFTER_MS[kind]) return { kind, since };
    }
    return null;
  }

  /** A quiet stretch ends when the next line came, which the poll sees a little later. */
  private endOf(gap: CaptureGap, s: HealthSignals, fallback: number): number {
    const end = gap.kind === 'no-captions' && s.lastLineAt !== null && s.lastLineAt > gap.startedAt ? s.lastLineAt : fallback;
    return Math.max(end, gap.startedAt);
  }

  private close(endedAt: number): CaptureGap {
    const closed = { ...this.open!, endedAt };
    this.open = null;
    this.remember(closed);
    return closed;
  }

  private remember(gap: CaptureGap): void {
    const index = this.recent.findIndex((g) => g.eventId === gap.eventId);
    if (index >= 0) this.recent[index] = { ...gap };
    else this.recent.push({ ...gap });
    if (this.recent.length > RECENT_GAPS) this.recent.shift();
  }
}
