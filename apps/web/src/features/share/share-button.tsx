import { useEffect, useId, useRef, useState } from 'react';
import type { Meeting } from '@mbox/shared/meeting';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { ModalBackdrop } from '../ui/modal-backdrop';
import { trpc } from '../../lib/trpc';

export const SHARE_EXPLANATION = "Anyone with the link can view this meeting's transcript and summaries.";
export const ENCRYPTED_EXPLANATION =
  "This meeting is encrypted, so it cannot be shared: its text is sealed with your key, and a link would have to open it for anyone.";

function ShareIcon() {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" className="size-4 shrink-0">
      <circle cx="18" cy="5" r="3" />
      <circle cx="6" cy="12" r="3" />
      <circle cx="18" cy="19" r="3" />
      <path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4" />
    </svg>
  );
}

function LockIcon() {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" className="size-5 shrink-0 text-base-content/70">
      <rect x="4" y="11" width="16" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </svg>
  );
}

const sinceFormat: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit' };

/** The meeting's Share button in the transcript header and its dialog: create, copy, replace or stop a read-only link. */
export function ShareButton({ meet }: { meet: Meeting }) {
  const [open, setOpen] = useState(false);
  // The link is known only right after it is made (the server keeps a fingerprint): kept while the page is open.
  const [url, setUrl] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    if (open && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [open]);

  return (
    <>
      <button type="button" className="btn btn-ghost btn-sm gap-1.5" onClick={() => setOpen(true)} aria-haspopup="dialog">
        <ShareIcon />
        <span className="max-sm:sr-only">Share</span>
      </button>
      {open && (
        // React passes the close of a confirm dialog inside this one up to it: only its own close counts.
        <dialog ref={dialog} className="modal" aria-label="Share meeting" onClose={(e) => e.target === e.currentTarget && setOpen(false)}>
          <div className="modal-box flex max-w-lg flex-col gap-4">
            <h3 className="text-lg font-semibold">Share meeting</h3>
            {meet.encrypted ? (
              <div role="alert" className="alert text-sm" data-testid="share-encrypted">
                <LockIcon />
                <span>{ENCRYPTED_EXPLANATION}</span>
              </div>
            ) : (
              <ShareControls meetingId={meet.key} url={url} onUrl={setUrl} />
            )}
            <div className="modal-action mt-0">
              <button type="button" className="btn btn-ghost" onClick={() => dialog.current?.close()}>
                Close
              </button>
            </div>
          </div>
          <ModalBackdrop />
        </dialog>
      )}
    </>
  );
}

function ShareControls({ meetingId, url, onUrl }: { meetingId: string; url: string | null; onUrl: (url: string | null) => void }) {
  const utils = trpc.useUtils();
  const status = trpc.share.status.useQuery({ id: meetingId });
  const replaceDialog = useRef<HTMLDialogElement>(null);
  const stopDialog = useRef<HTMLDialogElement>(null);

  const refresh = () => utils.share.status.invalidate({ id: meetingId });
  const create = trpc.share.create.useMutation({
    onSuccess: (link) => {
      onUrl(link.url);
      void refresh();
    },
  });
  const revoke = trpc.share.revoke.useMutation({
    onSuccess: () => {
      onUrl(null);
      void refresh();
    },
  });
  const busy = create.isPending || revoke.isPending;
  const shared = status.data?.shared ?? false;

  return (
    <div className="flex flex-col gap-4" data-testid="share-controls">
      <p className="text-sm text-base-content/80">
        {SHARE_EXPLANATION} Marks, comments and your other meetings stay private.
      </p>
      {status.isPending ? (
        <div className="flex justify-center py-2" role="status" aria-label="Loading sharing status">
          <span className="loading loading-dots loading-md text-primary" />
        </div>
      ) : !shared ? (
        <div>
          <button type="button" className="btn btn-primary" disabled={busy || status.isError} onClick={() => create.mutate({ id: meetingId })}>
            {create.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            Create link
          </button>
        </div>
      ) : (
        <>
          {url ? (
            <LinkField url={url} />
          ) : (
            <p className="rounded-box bg-base-200 px-3 py-2 text-sm text-base-content/80">
              The link is shown only when it is created. To copy it again, create a new link.
            </p>
          )}
          {status.data?.sharedAt != null && (
            <p className="text-xs text-base-content/70" data-testid="shared-since">
              Shared since {new Date(status.data.sharedAt).toLocaleString('en-US', sinceFormat)}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn btn-outline btn-sm" disabled={busy} onClick={() => replaceDialog.current?.showModal()}>
              {create.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
              Create a new link
            </button>
            <button type="button" className="btn btn-ghost btn-sm text-error" disabled={busy} onClick={() => stopDialog.current?.showModal()}>
              {revoke.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
              Stop sharing
            </button>
          </div>
        </>
      )}
      <ConfirmDialog
        ref={replaceDialog}
        title="Create a new link?"
        cancelLabel="Cancel"
        confirmLabel="Create new link"
        onConfirm={() => create.mutate({ id: meetingId })}
      >
        The current link stops working: anyone you sent it to will need the new one.
      </ConfirmDialog>
      <ConfirmDialog ref={stopDialog} title="Stop sharing?" cancelLabel="Cancel" confirmLabel="Stop sharing" onConfirm={() => revoke.mutate({ id: meetingId })}>
        The link stops working at once: whoever opens it sees a page-not-found.
      </ConfirmDialog>
    </div>
  );
}

/** The new link, selectable, with a Copy button that says when it copied. */
function LinkField({ url }: { url: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch (error) {
      // No clipboard here (an insecure origin): the link is selected to copy by hand.
      console.warn('[mbox] copy failed', error);
      input.current?.select();
    }
  };

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Link to this meeting
      </label>
      <div className="join w-full">
        <input
          ref={input}
          id={id}
          className="input join-item min-w-0 flex-1 font-mono text-xs"
          value={url}
          readOnly
          onFocus={(e) => e.currentTarget.select()}
          data-testid="share-url"
        />
        <button type="button" className="btn btn-primary join-item min-w-20" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <span className="sr-only" aria-live="polite">
        {copied ? 'Link copied' : ''}
      </span>
    </div>
  );
}
