import type { TranscriptLine } from '@mbox/shared';
import type { CaptionBlockSnapshot } from './dom.js';
import { isSelfLabel } from './self-labels.js';

/**
 * Turns successive snapshots of Meet's caption blocks into transcript line events.
 *
 * Meet rewrites the newest block in place while recognition refines it, so each line gets a stable id
 * (per block element, through a WeakMap) and a revision that grows with every change; the server
 * upserts by (session, captionId) and keeps the highest revision. A line is final when its block has
 * left the DOM for a moment, a later block belongs to another speaker, it has been idle for a while,
 * or the meeting ended. Editing a line that was final only through idleness reopens it.
 */

export interface TrackerOptions {
  /** Unique per page load so caption ids never collide within a session after a reload. */
  idPrefix: string;
  now: () => number;
  /** Who the user is; read once per update, so it should be cheap (the content script caches it). */
  self: () => SelfIdentity;
  onLine: (line: TranscriptLine) => void;
  /** Without changes for this long, a line is final. */
  idleFinalMs?: number;
  /** A block gone for this long is final (Meet sometimes detaches and re-attaches a block). */
  removedGraceMs?: number;
  /** A shrink of at least this many characters is Meet cutting a long monologue: a new line starts. */
  largeShrinkChars?: number;
  /** Words dropped from the end are only taken once gone this long (Meet shrinks briefly while refining). */
  shrinkSettleMs?: number;
}

/** The user, as far as the page and the extension know them. */
export interface SelfIdentity {
  /** The name the user's lines are stored under: the account's name from the handshake, else Meet's. */
  name: string | undefined;
  /** Names Meet shows for the user (in the call, on the pre-join screen). */
  pageNames: readonly string[];
  /** The user's own avatar image URL on the page (own tile, account button). */
  avatar: string | undefined;
  /** Names of the other participants: a self label that is somebody's name is that person. */
  others: readonly string[];
}

export const UNKNOWN_SPEAKER = 'Unknown speaker';

/**
 * An avatar URL without its size and crop options (`…=s64-c`), which differ between the caption and the
 * account button; undefined for Meet's shared default avatar, which identifies nobody.
 */
export function avatarKey(url: string | undefined): string | undefined {
  if (!url || /default-user|\/a\/default/.test(url)) return undefined;
  return url.replace(/[?#].*$/, '').replace(/=[^/]*$/, '');
}

/**
 * Whether a caption is the user's own. Language-independent signals first: the user's avatar (a personal
 * photo), then a label that is one of the user's names; only then Meet's localised self label ("You",
 * "Sie", "Vous" …), unless that word is the name of another participant.
 */
export function isOwnCaption(snapshot: Pick<CaptionBlockSnapshot, 'speaker' | 'avatar'>, self: SelfIdentity): boolean {
  const mine = avatarKey(self.avatar);
  if (mine !== undefined && avatarKey(snapshot.avatar) === mine) return true;
  const label = snapshot.speaker;
  if (!label) return false;
  if (label === self.name || self.pageNames.includes(label)) return true;
  return isSelfLabel(label) && !self.others.includes(label);
}

interface LineState {
  captionId: string;
  revision: number;
  speaker: string;
  avatar: string | undefined;
  text: string;
  /** Shorter text the block shows right now, not yet accepted (see shrinkSettleMs), and since when. */
  shorter: { text: string; since: number } | undefined;
  spokenAt: number;
  lastChangeAt: number;
  /** The block showing this line is not in the region any more (since this time). */
  detachedAt: number | undefined;
  /** A later block belongs to another speaker. */
  followedByOtherSpeaker: boolean;
  /** Why the line takes no more updates: split off by a monologue cut, removed past the grace time, or meeting ended. */
  closed: 'split' | 'removed' | 'ended' | undefined;
  emitted: { text: string; speaker: string; avatar: string | undefined; final: boolean } | undefined;
}

interface BlockState {
  blockNo: number;
  /** Number of lines this block has produced (monologue cuts start a new one). */
  lineCount: number;
  line: LineState | undefined;
  /** After a monologue cut, the words Meet kept that the previous line already holds. */
  overlap: string;
  /** Length of the block's text as Meet showed it last time (before removing any overlap). */
  shownLength: number;
}

/** Where a block stands in the current pass. */
interface BlockPlace {
  /** The latest spokenAt among the lines of the blocks before it. */
  after: number;
  /** A block of another speaker comes after it. */
  followedByOther: boolean;
}

/** Region replacements re-render the same blocks as new elements; they must not become duplicate lines. */
const ADOPT_MIN_PREFIX = 20;
/**
 * Re-rendering happens at once (at most one poll of the region apart); a line gone for longer is history,
 * and matching it would swallow a repeat said after Meet cleared the captions.
 */
const ADOPT_WINDOW_MS = 1500;
const RECENT_LINES_KEPT = 30;

/** The longest run of words that ends `before` and starts `after`, as it appears in `after`. */
export function overlapPrefix(before: string, after: string): string {
  const a = before.split(' ');
  const b = after.split(' ');
  for (let k = Math.min(a.length, b.length); k > 0; k -= 1) {
    if (a.slice(a.length - k).join(' ') === b.slice(0, k).join(' ')) return b.slice(0, k).join(' ');
  }
  return '';
}

/** `text` begins with the whole words of `start` ("see you" starts "see you then", not "see young"). */
function startsWithWords(text: string, start: string): boolean {
  return text === start || text.startsWith(`${start} `);
}

function normalizeForMatch(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

export class CaptionTracker {
  private readonly blocks = new WeakMap<object, BlockState>();
  private nextBlockNo = 1;
  /** Lines first seen in one pass share a clock reading; spokenAt must still order them as spoken. */
  private lastSpokenAt = 0;
  /** Lines still able to change, plus recently closed ones a re-rendered block may re-adopt. */
  private lines: LineState[] = [];
  private readonly idleFinalMs: number;
  private readonly removedGraceMs: number;
  private readonly largeShrinkChars: number;
  private readonly shrinkSettleMs: number;
  private lastLineAtValue: number | undefined;

  constructor(private readonly options: TrackerOptions) {
    this.idleFinalMs = options.idleFinalMs ?? 6000;
    this.removedGraceMs = options.removedGraceMs ?? 350;
    this.largeShrinkChars = options.largeShrinkChars ?? 200;
    this.shrinkSettleMs = options.shrinkSettleMs ?? 1000;
  }

  /** When the last line event was emitted, for capture health. */
  get lastLineAt(): number | undefined {
    return this.lastLineAtValue;
  }

  /** Feed the blocks currently in the caption region, oldest first. */
  update(snapshots: readonly CaptionBlockSnapshot[]): void {
    const now = this.options.now();
    const self = this.options.self();
    const speakers = snapshots.map((s) => this.resolveSpeaker(s, self));
    // Lines of blocks already known are present before new blocks may adopt a missing line.
    const present = new Set<LineState>();
    for (const snapshot of snapshots) {
      const line = this.blocks.get(snapshot.key)?.line;
      if (line) present.add(line);
    }

    // Spoken order of the lines shown so far in this pass: a re-rendered block keeps its place (see adoptMissing).
    let shownUpTo = 0;
    snapshots.forEach((snapshot, index) => {
      const speaker = speakers[index] ?? UNKNOWN_SPEAKER;
      const followedByOther = speakers.slice(index + 1).some((s) => s !== speaker);
      const line = this.updateBlock(snapshot, speaker, now, present, { after: shownUpTo, followedByOther });
      if (!line) return;
      present.add(line);
      shownUpTo = Math.max(shownUpTo, line.spokenAt);
      if (followedByOther) line.followedByOtherSpeaker = true;
    });

    for (const line of this.lines) {
      if (present.has(line)) line.detachedAt = undefined;
      else line.detachedAt ??= now;
    }
    this.settle(now);
  }

  /** Re-evaluate time-based finality (idle, removed blocks); call periodically. */
  tick(): void {
    this.settle(this.options.now());
  }

  /** Meeting ended or capture stops: every open line becomes final now. */
  finalizeAll(): void {
    const now = this.options.now();
    for (const line of this.lines) {
      line.closed ??= 'ended';
      this.emit(line, now);
    }
  }

  /** The user's lines go under the user's name; Meet's self label is never stored as a speaker. */
  private resolveSpeaker(snapshot: CaptionBlockSnapshot, self: SelfIdentity): string {
    if (isOwnCaption(snapshot, self)) return self.name || self.pageNames[0] || UNKNOWN_SPEAKER;
    return snapshot.speaker || UNKNOWN_SPEAKER;
  }

  private updateBlock(
    snapshot: CaptionBlockSnapshot,
    speaker: string,
    now: number,
    present: ReadonlySet<LineState>,
    place: BlockPlace,
  ): LineState | undefined {
    let block = this.blocks.get(snapshot.key);
    if (!block) {
      block = { blockNo: this.nextBlockNo++, lineCount: 0, line: undefined, overlap: '', shownLength: 0 };
      this.blocks.set(snapshot.key, block);
    }
    // Measured on what Meet shows, so a cut is seen even when the current line holds only part of it.
    const cut = block.shownLength - snapshot.text.length >= this.largeShrinkChars && snapshot.text !== '';
    block.shownLength = snapshot.text.length;
    let text = snapshot.text;
    if (block.overlap && !cut) {
      if (text.startsWith(block.overlap)) text = text.slice(block.overlap.length).trim();
      else block.overlap = '';
    }
    let line = block.line;
    if (!line) {
      // Meet adds a block before any words arrive; it becomes a line with its first words.
      if (!text) return undefined;
      line = this.adoptMissing(speaker, text, present, place, now) ?? this.newLine(block, speaker, snapshot.avatar, text, now);
      block.line = line;
      this.applyText(line, text, now);
      return line;
    }
    if (!this.lines.includes(line)) return undefined;

    if (cut) {
      // Meet cut a long monologue: what is left continues in a new line, minus words already captured.
      line.closed = 'split';
      this.emit(line, now);
      block.overlap = overlapPrefix(line.text, text);
      line = this.newLine(block, speaker, snapshot.avatar, text.slice(block.overlap.length).trim(), now);
      block.line = line;
    } else if (text.length < line.text.length && startsWithWords(line.text, text)) {
      // Words dropped from the end: keep the longer text unless the shrink lasts (settle() takes it then).
      // A shorter text with other words is recognition correcting itself and is taken like any rewrite.
      if (line.shorter?.text !== text) line.shorter = { text, since: now };
    } else {
      line.shorter = undefined;
      this.applyText(line, text, now);
    }
    // Meet may correct the speaker of a block; an avatar that fails to load is not a correction.
    if (line.speaker !== speaker || (snapshot.avatar && line.avatar !== snapshot.avatar)) {
      line.speaker = speaker;
      line.avatar = snapshot.avatar ?? line.avatar;
      line.lastChangeAt = now;
    }
    return line;
  }

  private applyText(line: LineState, text: string, now: number): void {
    if (text === line.text) return;
    line.text = text;
    line.lastChangeAt = now;
  }

  private newLine(block: BlockState, speaker: string, avatar: string | undefined, text: string, now: number): LineState {
    block.lineCount += 1;
    this.lastSpokenAt = Math.max(now, this.lastSpokenAt + 1);
    const suffix = block.lineCount > 1 ? `.${block.lineCount}` : '';
    const line: LineState = {
      captionId: `${this.options.idPrefix}-${block.blockNo}${suffix}`,
      revision: -1,
      speaker,
      avatar,
      text,
      shorter: undefined,
      spokenAt: this.lastSpokenAt,
      lastChangeAt: now,
      detachedAt: undefined,
      followedByOtherSpeaker: false,
      closed: undefined,
      emitted: undefined,
    };
    this.lines.push(line);
    return line;
  }

  /**
   * A line missing from the region, of the same speaker and with matching text: the same block re-rendered
   * by Meet (e.g. the region was replaced). It continues instead of becoming a duplicate.
   *
   * A re-rendered block keeps its place among the others, so a line only qualifies when it comes later in
   * spoken order than every line shown before this block, and, if another speaker's line followed it, when
   * a block of another speaker still follows this one. A short line said again ("Mm-hmm.") after others
   * spoke fails one of the two: it is a new line, not the old one coming back.
   */
  private adoptMissing(
    speaker: string,
    text: string,
    present: ReadonlySet<LineState>,
    place: BlockPlace,
    now: number,
  ): LineState | undefined {
    const wanted = normalizeForMatch(text);
    const line = this.lines.find((candidate) => {
      if (present.has(candidate) || candidate.closed === 'split' || candidate.speaker !== speaker) return false;
      if (candidate.detachedAt !== undefined && now - candidate.detachedAt > ADOPT_WINDOW_MS) return false;
      if (candidate.spokenAt <= place.after) return false;
      if (candidate.followedByOtherSpeaker && !place.followedByOther) return false;
      const have = normalizeForMatch(candidate.text);
      if (have === wanted) return true;
      const [shorter, longer] = have.length < wanted.length ? [have, wanted] : [wanted, have];
      // A block that vanished in this very pass while one took its place is a re-render (the region was
      // replaced): a shared start of whole words will do. Otherwise a short start ("Yeah") may be a new utterance.
      const goneThisPass = candidate.detachedAt === undefined;
      if (shorter.length >= ADOPT_MIN_PREFIX && longer.startsWith(shorter)) return true;
      return goneThisPass && shorter.length > 0 && startsWithWords(longer, shorter);
    });
    if (line?.closed === 'removed') line.closed = undefined;
    return line;
  }

  private settle(now: number): void {
    for (const line of this.lines) {
      if (!line.closed && line.detachedAt !== undefined && now - line.detachedAt >= this.removedGraceMs) {
        line.closed = 'removed';
      }
      if (line.shorter && !line.closed && line.detachedAt === undefined && now - line.shorter.since >= this.shrinkSettleMs) {
        this.applyText(line, line.shorter.text, now);
        line.shorter = undefined;
      }
      this.emit(line, now);
    }
    // Closed lines stay adoptable for a while; drop the oldest beyond a small window.
    const closed = this.lines.filter((l) => l.closed);
    if (closed.length > RECENT_LINES_KEPT) {
      const drop = new Set(closed.slice(0, closed.length - RECENT_LINES_KEPT));
      this.lines = this.lines.filter((l) => !drop.has(l));
    }
  }

  private isFinal(line: LineState, now: number): boolean {
    return line.closed !== undefined || line.followedByOtherSpeaker || now - line.lastChangeAt >= this.idleFinalMs;
  }

  /** Emits a new revision when anything the server stores has changed. */
  private emit(line: LineState, now: number): void {
    if (!line.text) return;
    const final = this.isFinal(line, now);
    const previous = line.emitted;
    if (
      previous &&
      previous.text === line.text &&
      previous.speaker === line.speaker &&
      previous.avatar === line.avatar &&
      previous.final === final
    ) {
      return;
    }
    line.revision += 1;
    line.emitted = { text: line.text, speaker: line.speaker, avatar: line.avatar, final };
    this.lastLineAtValue = now;
    const event: TranscriptLine = {
      captionId: line.captionId,
      revision: line.revision,
      speaker: line.speaker,
      text: line.text,
      spokenAt: line.spokenAt,
      final,
    };
    if (line.avatar) event.avatar = line.avatar;
    this.options.onLine(event);
  }
}
