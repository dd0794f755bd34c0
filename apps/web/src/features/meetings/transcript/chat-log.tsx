import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { captureGapText, type MeetingEvent } from '@mbox/shared/capture-events';
import { formatMessageTime } from '@mbox/shared/format';
import type { Message } from '@mbox/shared/meeting';
import { useMediaQuery } from '../../../lib/media-query';
import { ArrowDownIcon } from './icons';
import { MessageRow, type MessageRowProps } from './message-row';
import { transcriptRows } from './transcript-rows';

/** Size assumed for a scroller with no layout yet (first frame, a hidden panel, jsdom): one screen. */
const UNMEASURED_RECT = { width: 640, height: 800 };

/**
 * Up to this many lines the whole transcript stays in the DOM (the browser's find-in-page and
 * copying see every line); beyond it only the lines near the screen do.
 */
const RENDER_ALL_UP_TO = 150;

/** Pixels from the bottom within which the reader counts as 'at the live end'. */
const PINNED_SLACK = 48;

/** How long a line opened by link (`?line=`) stays highlighted. */
const HIGHLIGHT_MS = 4_000;

/** A line to scroll to and highlight; `request` differs per navigation, so opening the same line again scrolls again. */
export interface TranscriptFocus {
  key: string;
  request: string;
}

export type RowHandlers = Omit<MessageRowProps, 'message' | 'startsRun' | 'view' | 'editing' | 'optimizing' | 'toolbar' | 'onSelect'>;

/**
 * Below this transcript width a floating toolbar would cover the speaker's name: each line's actions
 * then show under the line the reader selects (as on touch screens).
 */
const FLOATING_TOOLBAR_MIN_WIDTH = 576;

/** Whether lines get a floating toolbar: a fine pointer (a mouse) and a wide enough transcript. */
function useFloatingToolbar(width: number): boolean {
  return useMediaQuery('(pointer: fine)', true) && width >= FLOATING_TOOLBAR_MIN_WIDTH;
}

const NO_GAPS: readonly MeetingEvent[] = [];

/** A stretch the extension could not capture, in place: "Captions were off 10:02 AM–10:07 AM". */
function GapRow({ gap }: { gap: MeetingEvent }) {
  return (
    <div className="flex items-center gap-3 px-3 py-2 text-xs text-warning-content/80" data-testid="transcript-gap" data-kind={gap.kind}>
      <span className="h-px flex-1 bg-warning/40" />
      <span className="rounded-full bg-warning/15 px-3 py-1 font-medium text-base-content/70">
        {captureGapText(gap, (ms) => formatMessageTime(ms))}
      </span>
      <span className="h-px flex-1 bg-warning/40" />
    </div>
  );
}

/**
 * The transcript as a virtual list: only the lines on screen (plus a few) are in the DOM, each
 * measured as it renders, so 10,000 lines scroll like 50. While a meeting is live it follows the
 * bottom like a chat unless the reader scrolled up; lines loaded above keep the reader's place.
 */
export function ChatLog({
  messages,
  gaps = NO_GAPS,
  live,
  views,
  editingKey,
  optimizing,
  handlers,
  focus = null,
}: {
  messages: readonly Message[];
  /** Capture gaps, shown in place by time. */
  gaps?: readonly MeetingEvent[];
  live: boolean;
  views: Readonly<Record<string, MessageRowProps['view']>>;
  editingKey: string | null;
  optimizing: ReadonlySet<string>;
  handlers: RowHandlers;
  /** A line to bring into view and highlight once it is loaded. */
  focus?: TranscriptFocus | null;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(live);
  const [showJump, setShowJump] = useState(false);
  /** The first line on screen and how far above the top its row starts, to hold it in place. */
  const anchor = useRef<{ key: string; offset: number } | null>(null);

  const rows = useMemo(() => transcriptRows(messages, gaps), [messages, gaps]);
  const [width, setWidth] = useState(UNMEASURED_RECT.width);
  const floating = useFloatingToolbar(width);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => {
      const row = rows[index];
      return row?.type === 'line' && row.startsRun ? 80 : 44;
    },
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: rows.length <= RENDER_ALL_UP_TO ? RENDER_ALL_UP_TO : 6,
    paddingStart: 4,
    paddingEnd: 24,
    // Until the scroller has a size, render one screen's worth rather than nothing.
    initialRect: UNMEASURED_RECT,
    observeElementRect: (instance, onRect) =>
      observeElementRect(instance, (rect) => {
        if (rect.width > 0) setWidth(rect.width);
        onRect(rect.height > 0 ? rect : UNMEASURED_RECT);
      }),
  });

  const scrollToEnd = useCallback(() => {
    if (rows.length) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [rows.length, virtualizer]);

  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    if (pinned.current) {
      scrollToEnd();
      return;
    }
    // Earlier lines arrived above (a live meeting loads backwards): keep the same line on screen.
    const held = anchor.current;
    const el = scroller.current;
    if (!held || !el) return;
    const index = rows.findIndex((row) => row.key === held.key);
    const item = index >= 0 ? virtualizer.measurementsCache[index] : undefined;
    if (item && Math.abs(item.start - held.offset - el.scrollTop) > 1) {
      virtualizer.scrollToOffset(item.start - held.offset);
    }
  }, [rows, totalSize, scrollToEnd, virtualizer]);

  // A line opened by link: centred once its row exists (its page may arrive later), highlighted a while.
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const focusDone = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!focus || focusDone.current === focus.request) return;
    const index = rows.findIndex((row) => row.key === focus.key);
    if (index < 0) return;
    focusDone.current = focus.request;
    // The reader is taken away from the live end, and the place held so far no longer matters.
    pinned.current = false;
    anchor.current = null;
    setShowJump(live);
    virtualizer.scrollToIndex(index, { align: 'center' });
    setHighlighted(focus.key);
  }, [focus, rows, live, virtualizer]);
  useEffect(() => {
    if (!highlighted) return;
    const timer = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

  const items = virtualizer.getVirtualItems();

  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={scroller}
        className="h-full overflow-y-auto overscroll-contain"
        data-testid="transcript-scroller"
        tabIndex={0}
        aria-label="Transcript"
        aria-live={live ? 'polite' : 'off'}
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = live && el.scrollHeight - el.scrollTop - el.clientHeight < PINNED_SLACK;
          setShowJump(live && !pinned.current);
          const first = virtualizer.getVirtualItems().find((item) => item.end > el.scrollTop);
          const key = first ? rows[first.index]?.key : undefined;
          anchor.current = first && key ? { key, offset: first.start - el.scrollTop } : null;
        }}
      >
        <div className="relative w-full" style={{ height: totalSize }}>
          {items.map((item) => {
            const row = rows[item.index]!;
            const run = row.type === 'line' && row.startsRun ? { 'data-testid': 'speaker-run', 'data-speaker': row.message.user } : {};
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className={`absolute left-0 top-0 w-full px-1 transition-colors duration-700 ${highlighted === row.key ? 'rounded-box bg-warning/25' : ''}`}
                style={{ transform: `translateY(${item.start}px)` }}
                data-highlighted={highlighted === row.key || undefined}
                {...run}
              >
                {row.type === 'gap' ? (
                  <GapRow gap={row.gap} />
                ) : (
                  <MessageRow
                    message={row.message}
                    startsRun={row.startsRun}
                    view={views[row.message.key] ?? 'optimized'}
                    editing={editingKey === row.message.key}
                    optimizing={optimizing.has(row.message.key)}
                    toolbar={floating ? 'floating' : selectedKey === row.message.key || editingKey === row.message.key ? 'shown' : 'none'}
                    onSelect={setSelectedKey}
                    {...handlers}
                  />
                )}
              </div>
            );
          })}
        </div>
      </div>
      {showJump && (
        <button
          type="button"
          className="btn btn-primary btn-sm absolute bottom-4 left-1/2 -translate-x-1/2 gap-1 rounded-full shadow-lg"
          onClick={() => {
            pinned.current = true;
            setShowJump(false);
            scrollToEnd();
          }}
        >
          <ArrowDownIcon />
          Latest
        </button>
      )}
    </div>
  );
}
