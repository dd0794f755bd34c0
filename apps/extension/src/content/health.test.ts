// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { readCaptionBlocks } from './dom.js';
import { CaptureHealthMonitor, GAP_AFTER_MS, hasUnreadableCaptions, type HealthSignals } from './health.js';

const ok: HealthSignals = { inCall: true, captionsOff: false, regionFound: true, unreadable: false, lastLineAt: null };
const s = 1000;

/** Feeds the monitor one observation per second from `from` to `to` (inclusive), collecting reports. */
function run(monitor: CaptureHealthMonitor, from: number, to: number, signals: (t: number) => HealthSignals) {
  const reports = [];
  for (let t = from; t <= to; t += s) reports.push(...monitor.update(signals(t), t));
  return reports;
}

describe('CaptureHealthMonitor', () => {
  it('reports captions turned off as one gap, opened once it lasts and closed when captions return', () => {
    const monitor = new CaptureHealthMonitor('p');
    expect(run(monitor, 0, 10 * s, () => ok)).toEqual([]);
    const off = { ...ok, captionsOff: true, regionFound: false };
    const opened = run(monitor, 11 * s, 20 * s, () => off);
    expect(opened).toEqual([{ eventId: 'p-gap1', kind: 'captions-off', startedAt: 11 * s }]);
    expect(monitor.current?.kind).toBe('captions-off');
    const closed = run(monitor, 21 * s, 22 * s, () => ok);
    expect(closed).toEqual([{ eventId: 'p-gap1', kind: 'captions-off', startedAt: 11 * s, endedAt: 21 * s }]);
    expect(monitor.current).toBeNull();
    expect(monitor.gaps).toEqual(closed);
  });

  it('ignores a flicker shorter than the threshold', () => {
    const monitor = new CaptureHealthMonitor('p');
    run(monitor, 0, 5 * s, () => ok);
    expect(run(monitor, 6 * s, 6 * s + GAP_AFTER_MS['captions-off'] - s, () => ({ ...ok, captionsOff: true }))).toEqual([]);
    expect(run(monitor, 10 * s, 12 * s, () => ok)).toEqual([]);
  });

  it('names a missing region only after its grace period, and a parse failure as capture-broken', () => {
    const monitor = new CaptureHealthMonitor('p');
    const missing = run(monitor, 0, 30 * s, () => ({ ...ok, regionFound: false }));
    expect(missing).toEqual([{ eventId: 'p-gap1', kind: 'region-missing', startedAt: 0 }]);
    expect(GAP_AFTER_MS['region-missing']).toBeGreaterThan(s);
    // The region comes back but its captions cannot be read: the first gap ends, a broken one follows.
    const broken = run(monitor, 31 * s, 40 * s, () => ({ ...ok, unreadable: true }));
    expect(broken).toEqual([
      { eventId: 'p-gap1', kind: 'region-missing', startedAt: 0, endedAt: 31 * s },
      { eventId: 'p-gap2', kind: 'capture-broken', startedAt: 31 * s },
    ]);
  });

  it('reports no captions after a long quiet, ending where the next line came', () => {
    const monitor = new CaptureHealthMonitor('p');
    const quiet = GAP_AFTER_MS['no-captions'];
    const lastLine = 5 * s;
    run(monitor, 0, 6 * s, () => ({ ...ok, lastLineAt: lastLine }));
    expect(monitor.update({ ...ok, lastLineAt: lastLine }, lastLine + quiet - s)).toEqual([]);
    expect(monitor.update({ ...ok, lastLineAt: lastLine }, lastLine + quiet)).toEqual([
      { eventId: 'p-gap1', kind: 'no-captions', startedAt: lastLine },
    ]);
    const nextLine = lastLine + quiet + 30 * s;
    expect(monitor.update({ ...ok, lastLineAt: nextLine }, nextLine + 400)).toEqual([
      { eventId: 'p-gap1', kind: 'no-captions', startedAt: lastLine, endedAt: nextLine },
    ]);
  });

  it('nothing is a gap outside the call, and finish closes the gap in progress', () => {
    const monitor = new CaptureHealthMonitor('p');
    expect(run(monitor, 0, 20 * s, () => ({ ...ok, inCall: false, regionFound: false, captionsOff: true }))).toEqual([]);
    run(monitor, 21 * s, 30 * s, () => ({ ...ok, captionsOff: true }));
    expect(monitor.finish(31 * s)).toEqual([{ eventId: 'p-gap1', kind: 'captions-off', startedAt: 21 * s, endedAt: 31 * s }]);
    expect(monitor.finish(32 * s)).toEqual([]);
  });
});

describe('hasUnreadableCaptions', () => {
  function region(html: string): Element {
    document.body.innerHTML = `<div role="region" tabindex="0">${html}<div>jump</div><div></div></div>`;
    return document.body.firstElementChild!;
  }

  it('is false for a region whose captions read, and for an empty one', () => {
    const readable = region(
      '<div class="nMcdL bj4p3b"><div class="KcIKyf jxFHg"><span class="NWpY1d">Ana</span></div><div class="ygicle VbkSUe">Hello</div></div>',
    );
    expect(hasUnreadableCaptions(readable, readCaptionBlocks(readable))).toBe(false);
    const empty = region('');
    expect(hasUnreadableCaptions(empty, readCaptionBlocks(empty))).toBe(false);
  });

  it('is true when the region shows text in markup no selector knows', () => {
    const renamed = region('<div class="zz9Q"><div class="qq1">Ana</div><div class="ww2">Hello there</div></div>');
    expect(hasUnreadableCaptions(renamed, readCaptionBlocks(renamed))).toBe(true);
  });
});
