import { useId, useRef } from 'react';
import { describeUserAgent } from '@mbox/shared/auth-user-agent';
import type { ExtensionTokenInfo, SessionInfo } from '@mbox/shared/auth';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { ConfirmDialog } from '../ui/confirm-dialog';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Settings › Account: where this account is signed in, with Revoke and "Sign out everywhere". */
export function SessionsSection() {
  const id = useId();
  const session = useSession();
  const utils = trpc.useUtils();
  const list = trpc.auth.sessions.useQuery();
  const revoke = trpc.auth.revokeSession.useMutation();
  const everywhere = trpc.auth.logoutEverywhere.useMutation();
  const dialog = useRef<HTMLDialogElement>(null);

  const revokeSession = async (target: SessionInfo) => {
    await revoke.mutateAsync({ id: target.id });
    // Revoking this browser's own session is signing out here.
    if (target.current) session.endLocally();
    else await utils.auth.sessions.invalidate();
  };

  const signOutEverywhere = async () => {
    const result = await everywhere.mutateAsync({ extensionTokens: true });
    toast.success(
      `Signed out ${result.sessions} ${result.sessions === 1 ? 'session' : 'sessions'} and ${result.extensionTokens} ${result.extensionTokens === 1 ? 'extension' : 'extensions'}`,
    );
    session.endLocally();
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="card max-w-2xl border border-base-300 bg-base-100">
      <div className="card-body gap-4 p-4 sm:p-6">
        <div>
          <h2 id={`${id}-heading`} className="card-title">
            Where you are signed in
          </h2>
          <p className="mt-1 text-sm text-base-content/70">
            Each browser or script that signed in to your account. Revoke one you do not recognise: it is signed out at
            once.
          </p>
        </div>
        {list.isPending ? (
          <span className="loading loading-dots loading-md" aria-label="Loading sessions" />
        ) : list.isError ? (
          <p className="text-error">The sessions could not be loaded.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-base-300" aria-label="Signed-in sessions">
            {list.data.sessions.map((item) => (
              <li key={item.id} aria-label={describeUserAgent(item.userAgent)} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">
                    {describeUserAgent(item.userAgent)}
                    {item.current && <span className="badge badge-success badge-sm ml-2 align-middle">This browser</span>}
                  </p>
                  <p className="text-sm text-base-content/70">
                    Signed in {dateTime.format(item.createdAt)} · last used {dateTime.format(item.lastUsedAt)}
                  </p>
                </div>
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  disabled={revoke.isPending}
                  onClick={() => void revokeSession(item)}
                >
                  {item.current ? 'Sign out' : 'Revoke'}
                </button>
              </li>
            ))}
          </ul>
        )}
        <div>
          <button type="button" className="btn btn-outline btn-error" disabled={everywhere.isPending} onClick={() => dialog.current?.showModal()}>
            {everywhere.isPending && <span className="loading loading-spinner loading-sm" />}
            Sign out everywhere
          </button>
        </div>
      </div>
      <ConfirmDialog
        ref={dialog}
        title="Sign out everywhere?"
        cancelLabel="Stay signed in"
        confirmLabel="Sign out everywhere"
        onConfirm={() => void signOutEverywhere()}
      >
        Every browser and script is signed out, this one included, and every extension is disconnected: it stops
        sending transcripts until you sign in to Mbox again in that browser.
      </ConfirmDialog>
    </section>
  );
}

/** Settings › Account: the extensions holding a token for this account, each revocable. */
export function ConnectedExtensionsSection() {
  const id = useId();
  const utils = trpc.useUtils();
  const list = trpc.auth.extensionTokens.useQuery();
  const revoke = trpc.auth.revokeExtensionToken.useMutation({ onSuccess: () => utils.auth.extensionTokens.invalidate() });

  return (
    <section aria-labelledby={`${id}-heading`} className="card max-w-2xl border border-base-300 bg-base-100">
      <div className="card-body gap-4 p-4 sm:p-6">
        <div>
          <h2 id={`${id}-heading`} className="card-title">
            Connected extensions
          </h2>
          <p className="mt-1 text-sm text-base-content/70">
            The Mbox extension gets its own token, which can only send transcripts. A token unused for 90 days stops
            working; revoke one to disconnect that browser&apos;s extension now.
          </p>
        </div>
        {list.isPending ? (
          <span className="loading loading-dots loading-md" aria-label="Loading extensions" />
        ) : list.isError ? (
          <p className="text-error">The extensions could not be loaded.</p>
        ) : list.data.tokens.length === 0 ? (
          <p className="text-sm text-base-content/70">No extension is connected.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-base-300" aria-label="Connected extensions">
            {list.data.tokens.map((token) => (
              <ExtensionItem key={token.id} token={token} pending={revoke.isPending} onRevoke={() => revoke.mutate({ id: token.id })} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function ExtensionItem({ token, pending, onRevoke }: { token: ExtensionTokenInfo; pending: boolean; onRevoke: () => void }) {
  const label = token.label || 'Extension';
  return (
    <li aria-label={label} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
      <div className="min-w-0 flex-1">
        <p className="font-medium">{label}</p>
        <p className="text-sm text-base-content/70">
          Connected {dateTime.format(token.createdAt)} ·{' '}
          {token.lastUsedAt === null ? 'not used yet' : `last used ${dateTime.format(token.lastUsedAt)}`} · expires{' '}
          {dateTime.format(token.expiresAt)} unless used
        </p>
      </div>
      <button type="button" className="btn btn-outline btn-sm" disabled={pending} onClick={onRevoke}>
        Revoke
      </button>
    </li>
  );
}
