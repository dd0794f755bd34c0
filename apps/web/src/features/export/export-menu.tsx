import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { EXPORT_FORMAT_LABELS, EXPORT_FORMATS, type ExportFormat } from '@mbox/shared/export';
import type { Meeting } from '@mbox/shared/meeting';
import { handleApiError } from '../../lib/errors';
import { downloadExport } from './download';

function DownloadIcon() {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" className="size-4 shrink-0">
      <path d="M12 4v11m0 0-4-4m4 4 4-4M5 19h14" />
    </svg>
  );
}

/**
 * The meeting's Export menu in the transcript header (daisyUI dropdown on <details>): one item per file
 * format; choosing one downloads the file without leaving the page. Keyboard: Enter or Space opens it,
 * the arrow keys move between items, Escape closes it and returns to the button.
 */
export function ExportMenu({ meet }: { meet: Meeting }) {
  const root = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState<ExportFormat | null>(null);

  const close = (refocus: boolean) => {
    if (root.current) root.current.open = false;
    if (refocus) root.current?.querySelector('summary')?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const items = () => [...(root.current?.querySelectorAll<HTMLButtonElement>('[data-export-format]') ?? [])];

  const onKeyDown = (e: KeyboardEvent) => {
    // The element's own state: React's copy follows the asynchronous toggle event, a key can come first.
    if (e.key === 'Escape' && root.current?.open) {
      e.preventDefault();
      close(true);
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    if (root.current && !root.current.open) root.current.open = true;
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    const next = e.key === 'ArrowDown' ? (at + 1) % list.length : (at <= 0 ? list.length : at) - 1;
    list[next]?.focus();
  };

  const choose = (format: ExportFormat) => {
    close(true);
    setPending(format);
    downloadExport(meet.key, format)
      .catch((error: unknown) => handleApiError(error))
      .finally(() => setPending(null));
  };

  return (
    <details
      ref={root}
      className="dropdown dropdown-end"
      onToggle={(e) => setOpen(e.currentTarget.open)}
      onKeyDown={onKeyDown}
      data-testid="export-menu"
    >
      <summary
        className="btn btn-ghost btn-sm gap-1.5 list-none [&::-webkit-details-marker]:hidden"
        aria-haspopup="true"
        aria-expanded={open}
        aria-label={pending ? `Export: preparing ${EXPORT_FORMAT_LABELS[pending]}` : undefined}
      >
        {pending ? <span className="loading loading-spinner loading-xs" aria-hidden="true" /> : <DownloadIcon />}
        <span className="max-sm:sr-only">Export</span>
      </summary>
      <ul className="menu dropdown-content z-30 mt-2 w-56 rounded-box border border-base-300 bg-base-100 p-1.5 shadow-xl" aria-label="Export formats">
        {EXPORT_FORMATS.map((format) => (
          <li key={format}>
            <button type="button" data-export-format={format} disabled={pending !== null} onClick={() => choose(format)}>
              <span className="flex-1">{EXPORT_FORMAT_LABELS[format]}</span>
              <span className="text-xs uppercase text-base-content/70">.{format}</span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
