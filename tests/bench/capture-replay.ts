/**
 * The replay behind `npm run bench:capture`, shared by its jsdom and Chromium runs:
 * blocks per speaker turn, text growing two words at a time and rewritten in place, misrecognised words
 * corrected, brief shrinks, long monologues cut, only the last four blocks kept.
 */
import type { TranscriptLine } from '@mbox/shared';
import { readCaptionBlocks } from '../../apps/extension/src/content/dom.js';
import { CaptionTracker } from '../../apps/extension/src/content/tracker.js';
import type { ReplayTurn } from '../fixtures/meet/replay.js';

const WORDS_PER_SECOND = 150 / 60;
const WORDS_PER_STEP = 2;
const MAX_BLOCKS = 4;
const CUT_AT = 900;
const SEND_INTERVAL_MS = 500;
const TICK_MS = 1000;
const MARK_MS = 30 * 60_000;
const FILLERS = ['uh', 'the', 'a', 'and', 'so'];

export const SPEECH_WORDS_PER_SECOND = WORDS_PER_SECOND;

export interface CaptureReplayResult {
  hours: number;
  turns: number;
  mutations: number;
  linesSent: number;
  /** Per scan (read blocks + tracker.update), ms, sorted. */
  costs: number[];
  /** tracker.update alone, ms, sorted. */
  trackerCosts: number[];
  marks: { minute: number; heap: number }[];
}

/** Meet's 2025 caption markup (see tests/fixtures/meet/meet.js). */
function meetPage(doc: Document) {
  const el = (tag: string, attrs: Record<string, string>, children: (Node | string)[] = []) => {
    const node = doc.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    node.append(...children);
    return node;
  };
  const region = el('div', { role: 'region', tabindex: '0', 'aria-label': 'Captions' }, [
    el('div', { class: 'dTwvCf' }, [el('button', {}, ['arrow_downward'])]),
    el('div', { class: 'iOzk7' }),
  ]);
  doc.body.append(region);
  const blocks = () => Array.from(region.querySelectorAll<HTMLElement>('.nMcdL.bj4p3b'));
  return {
    region,
    appendBlock(speaker: string): Text {
      const text = doc.createTextNode('');
      const block = el('div', { class: 'nMcdL bj4p3b' }, [
        el('div', { class: 'adE6rb' }, [
          el('img', { class: 'Z6byG r6DyN', src: 'https://lh3.googleusercontent.com/a/default-user=s64-c' }),
          el('div', { class: 'KcIKyf jxFHg' }, [el('span', { class: 'NWpY1d' }, [speaker])]),
        ]),
        el('div', { jsname: 'tgaKEf', class: 'ygicle VbkSUe' }, [text]),
      ]);
      region.insertBefore(block, region.children[region.children.length - 2] ?? null);
      const all = blocks();
      for (const old of all.slice(0, Math.max(0, all.length - MAX_BLOCKS))) old.remove();
      return text;
    },
  };
}

function cutMonologue(text: string): string {
  const pieces = text.match(/[^.!?]+(?:[.!?]+|$)\s*/g) ?? [];
  const kept = pieces.slice(-2).join('').trim();
  if (pieces.length > 2 && kept.length < text.length / 2) return kept;
  return text.split(' ').slice(-8).join(' ');
}

/**
 * Replays `turns` into a Meet-like caption region of `doc`: after every mutation it does what the
 * content script's scan does (read the blocks, update the tracker) and times it with `clock`.
 * `heapAfterGc` is sampled at every 30 minutes of meeting time. Runs in Node (jsdom) and in Chromium.
 */
export function replayCaptions(
  doc: Document,
  turns: readonly ReplayTurn[],
  clock: () => number,
  heapAfterGc: () => number,
): CaptureReplayResult {
  const page = meetPage(doc);
  let now = 0;
  let linesSent = 0;
  const pending = new Map<string, TranscriptLine>();
  const tracker = new CaptionTracker({
    idPrefix: 'bench',
    now: () => now,
    self: () => ({ name: 'Bench User', pageNames: ['Bench User'], avatar: undefined, others: [] }),
    onLine: (line) => pending.set(line.captionId, line),
  });

  // Preallocated (a turn makes at most one mutation per word, plus a shrink) so the heap marks measure the capture, not the bench.
  const capacity = turns.reduce((sum, t) => sum + t.text.split(' ').length + 1, 0);
  const costs = new Float64Array(capacity);
  const trackerCosts = new Float64Array(capacity);
  let mutations = 0;
  const marks: { minute: number; heap: number }[] = [{ minute: 0, heap: heapAfterGc() }];
  let nextTick = TICK_MS;
  let nextSend = SEND_INTERVAL_MS;
  let nextMark = MARK_MS;

  /** One caption mutation: the DOM changes, the content script scans, the clock moves on. */
  const mutate = (node: Text, text: string, ms: number) => {
    node.data = text;
    const start = clock();
    const snapshots = readCaptionBlocks(page.region);
    const read = clock();
    tracker.update(snapshots);
    const end = clock();
    costs[mutations] = end - start;
    trackerCosts[mutations] = end - read;
    mutations += 1;
    now += ms;
    while (now >= nextTick) {
      tracker.tick();
      nextTick += TICK_MS;
    }
    if (now >= nextSend) {
      linesSent += pending.size;
      pending.clear();
      nextSend = now + SEND_INTERVAL_MS;
    }
    if (now >= nextMark) {
      marks.push({ minute: nextMark / 60_000, heap: heapAfterGc() });
      nextMark += MARK_MS;
    }
  };

  let lastSpeaker = '';
  let node: Text | undefined;
  let shown = '';
  let turnNo = 0;
  for (const turn of turns) {
    turnNo += 1;
    if (!node || turn.speaker !== lastSpeaker) {
      node = page.appendBlock(turn.speaker);
      shown = '';
    }
    lastSpeaker = turn.speaker;
    const words = turn.text.split(' ');
    const stepMs = (WORDS_PER_STEP / WORDS_PER_SECOND) * 1000;
    for (let i = 0; i < words.length; i += WORDS_PER_STEP) {
      const chunk = words.slice(i, i + WORDS_PER_STEP).join(' ');
      if (i > 0 && i % (WORDS_PER_STEP * 6) === 0) {
        // Recognition guesses a word wrong, then corrects it in place.
        mutate(node, `${shown} ${FILLERS[i % FILLERS.length]}`, 50);
      }
      if (turnNo % 7 === 0 && i === WORDS_PER_STEP * 3) mutate(node, shown.split(' ').slice(0, -2).join(' '), 50);
      const next = shown ? `${shown} ${chunk}` : chunk;
      shown = next.length > CUT_AT ? cutMonologue(next) : next;
      mutate(node, shown, stepMs);
    }
  }
  tracker.finalizeAll();
  linesSent += pending.size;

  return {
    hours: now / 3_600_000,
    turns: turns.length,
    mutations,
    linesSent,
    costs: Array.from(costs.slice(0, mutations).sort()),
    trackerCosts: Array.from(trackerCosts.slice(0, mutations).sort()),
    marks,
  };
}
