import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { MARKS, type Mark } from '@mbox/shared/meeting';
import { isFilterActive, type MessageFilter, type SpeakerOption } from '@mbox/shared/message-filter';
import { CommentIcon, FilterIcon, FlagIcon, StarIcon } from './icons';
import { SpeakerAvatar } from './speaker-avatar';

const MARK_LABELS: Record<Mark, { label: string; icon: ReactNode; tint: string }> = {
  important: { label: 'Important', icon: <StarIcon filled />, tint: 'text-warning' },
  flagged: { label: 'Flagged', icon: <FlagIcon filled />, tint: 'text-error' },
  commented: { label: 'Commented', icon: <CommentIcon filled />, tint: 'text-info' },
};

/** Pixels kept between the filter panel and the screen's edge. */
const SCREEN_MARGIN = 8;

function toggled<T>(list: readonly T[], item: T): T[] {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}

/** product.md, Screens / Validation: filter by speakers (with avatars) and marks; a line shows if its speaker or a mark matches. */
export function TranscriptFilter({
  filter,
  onChange,
  speakers,
  markCounts,
}: {
  filter: MessageFilter;
  onChange(filter: MessageFilter): void;
  speakers: readonly SpeakerOption[];
  markCounts: Record<Mark, number>;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();
  // The panel hangs from the button's right edge; where that would cut it off at the screen's left
  // (the button near the left edge of a phone), it is moved right until it fits.
  const [shift, setShift] = useState(0);
  useLayoutEffect(() => {
    if (!open || !panel.current) {
      setShift(0);
      return;
    }
    // Measured once per opening, before the shift applies (it is 0 while closed).
    setShift(Math.max(0, SCREEN_MARGIN - panel.current.getBoundingClientRect().left));
  }, [open]);
  const chosen = filter.speakers.length + filter.marks.length;

  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  return (
    <div className="relative" ref={root}>
      <button
        type="button"
        className={`btn btn-sm gap-1.5 ${chosen ? 'btn-primary' : 'btn-ghost border-base-300'}`}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((v) => !v)}
      >
        <FilterIcon />
        Filter
        {chosen > 0 && <span className="badge badge-sm border-0 bg-primary-content/20 text-primary-content">{chosen}</span>}
      </button>
      {open && (
        <div
          id={panelId}
          ref={panel}
          style={shift ? { transform: `translateX(${shift}px)` } : undefined}
          className="absolute right-0 z-30 mt-2 max-h-[70vh] w-72 max-w-[calc(100vw-2rem)] overflow-y-auto rounded-box border border-base-300 bg-base-100 p-3 shadow-xl"
          role="dialog"
          aria-label="Filter messages"
          data-testid="transcript-filter"
        >
          <fieldset>
            <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-base-content/70">Speakers</legend>
            {speakers.map((s) => (
              <label key={s.user} className="flex cursor-pointer items-center gap-2 rounded-lg px-1.5 py-1 hover:bg-base-200">
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm checkbox-primary"
                  checked={filter.speakers.includes(s.user)}
                  onChange={() => onChange({ ...filter, speakers: toggled(filter.speakers, s.user) })}
                />
                <SpeakerAvatar name={s.user} url={s.avatar} size="sm" />
                <span className="min-w-0 flex-1 truncate text-sm">{s.user}</span>
                <span className="text-xs text-base-content/70">{s.count}</span>
              </label>
            ))}
          </fieldset>
          <div className="my-2 h-px bg-base-200" />
          <fieldset>
            <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-base-content/70">Marks</legend>
            {MARKS.map((mark) => (
              <label key={mark} className="flex cursor-pointer items-center gap-2 rounded-lg px-1.5 py-1 hover:bg-base-200">
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm checkbox-primary"
                  checked={filter.marks.includes(mark)}
                  onChange={() => onChange({ ...filter, marks: toggled(filter.marks, mark) })}
                />
                <span className={MARK_LABELS[mark].tint}>{MARK_LABELS[mark].icon}</span>
                <span className="flex-1 text-sm">{MARK_LABELS[mark].label}</span>
                <span className="text-xs text-base-content/70">{markCounts[mark]}</span>
              </label>
            ))}
          </fieldset>
          <p className="mt-2 text-xs text-base-content/70">Shows lines of any chosen speaker or with any chosen mark.</p>
          <button
            type="button"
            className="btn btn-ghost btn-sm mt-2 w-full"
            disabled={!isFilterActive(filter)}
            onClick={() => onChange({ speakers: [], marks: [] })}
          >
            Clear filter
          </button>
        </div>
      )}
    </div>
  );
}
