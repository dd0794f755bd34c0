import { useId, useRef, useState } from 'react';
import { ACCOUNT_EXPORT_PATH, deleteConfirmationMatches } from '@mbox/shared/account';
import { handleApiError, refusalOrReport } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { downloadFile } from '../export/download';
import { ModalBackdrop } from '../ui/modal-backdrop';

/** Settings › Account: the account's data to take away, and the way to delete the account. */
export function AccountDataSection() {
  const id = useId();
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(ACCOUNT_EXPORT_PATH, 'mbox-data.zip');
    } catch (error) {
      handleApiError(error);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="card max-w-2xl border border-base-300 bg-base-100">
      <div className="card-body gap-4 p-4 sm:p-6">
        <div>
          <h2 id={`${id}-heading`} className="card-title">
            Your data
          </h2>
          <p className="mt-1 text-sm text-base-content/70">
            Download a zip of everything in your account: every meeting with its lines, marks, comments and summaries (as
            JSON and as Markdown), your settings and your plan.
          </p>
        </div>
        <div>
          <button type="button" className="btn btn-outline" disabled={downloading} onClick={() => void download()}>
            {downloading && <span className="loading loading-spinner loading-sm" />}
            Download my data
          </button>
        </div>
        <DeleteAccount />
      </div>
    </section>
  );
}

/** Delete my account: a dialog that asks for the account's e-mail address before anything is deleted. */
function DeleteAccount() {
  const id = useId();
  const session = useSession();
  const email = session.user?.email ?? '';
  const dialog = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  // Why the server refused (a subscription it could not cancel): shown in the dialog, which stays open.
  const [refusal, setRefusal] = useState<string | null>(null);
  const remove = trpc.account.delete.useMutation();
  const confirmed = email !== '' && deleteConfirmationMatches(typed, email);

  const deleteAccount = async () => {
    setRefusal(null);
    try {
      await remove.mutateAsync({ confirm: typed });
    } catch (error) {
      setRefusal(refusalOrReport(error));
      return;
    }
    dialog.current?.close();
    toast.success('Your account and all its data were deleted');
    session.endLocally();
  };

  return (
    <div className="border-t border-base-300 pt-4">
      <h3 className="font-semibold text-error">Delete my account</h3>
      <p className="mt-1 text-sm text-base-content/70">
        Deletes your meetings, summaries, recap e-mails, settings and connected extensions for good, and cancels a paid
        subscription at once. Download your data first if you want to keep it.
      </p>
      <button
        type="button"
        className="btn btn-outline btn-error mt-3"
        onClick={() => {
          setTyped('');
          setRefusal(null);
          dialog.current?.showModal();
        }}
      >
        Delete my account
      </button>
      <dialog ref={dialog} className="modal" aria-labelledby={`${id}-title`}>
        <form
          className="modal-box"
          onSubmit={(event) => {
            event.preventDefault();
            if (confirmed && !remove.isPending) void deleteAccount();
          }}
        >
          <h3 id={`${id}-title`} className="text-lg font-semibold">
            Delete your account?
          </h3>
          <p className="py-3 text-base-content/80">
            Everything in this account is deleted and cannot be brought back; a paid subscription ends now, without a refund.
            You are signed out everywhere and the extension is disconnected.
          </p>
          <label className="form-control w-full">
            <span className="label-text mb-1 block">
              Type your e-mail address <strong>{email}</strong> to confirm
            </span>
            <input
              type="email"
              className="input input-bordered w-full"
              autoComplete="off"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
          </label>
          {refusal && (
            <p role="alert" className="mt-3 text-error">
              {refusal}
            </p>
          )}
          <div className="modal-action">
            <button type="button" className="btn btn-ghost" onClick={() => dialog.current?.close()}>
              Keep my account
            </button>
            <button type="submit" className="btn btn-error" disabled={!confirmed || remove.isPending}>
              {remove.isPending && <span className="loading loading-spinner loading-sm" />}
              Delete my account
            </button>
          </div>
        </form>
        <ModalBackdrop />
      </dialog>
    </div>
  );
}
