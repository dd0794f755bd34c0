import { useSearchParams } from 'react-router';
import type { RecipientConsent } from '@mbox/shared/recap';
import { trpc } from '../../lib/trpc';
import { NoticeCard } from '../ui/notice-card';

function Answered({ consent }: { consent: RecipientConsent }) {
  return consent.status === 'confirmed' ? (
    <p className="text-base-content/70">
      Mbox will e-mail the summaries of <strong className="break-all">{consent.ownerEmail}</strong>’s meetings to{' '}
      <strong className="break-all">{consent.email}</strong> after each meeting ends. You can stop them here at any time:
      keep the e-mail with this link.
    </p>
  ) : (
    <p className="text-base-content/70">
      Mbox will send no meeting summaries of <strong className="break-all">{consent.ownerEmail}</strong> to{' '}
      <strong className="break-all">{consent.email}</strong>, and will not ask you again.
    </p>
  );
}

/**
 * /recipient?token=… (public): the link of the e-mail that asks someone whether they want the recaps
 * of another person's meetings. The reader needs no account; opening the link alone changes nothing
 * (mail scanners open links): they agree or decline with a button, and can decline later with it too.
 */
export function RecipientPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const state = trpc.recap.recipientConsent.useQuery({ token }, { enabled: token.length > 0, retry: false, meta: { silent: true } });
  const confirm = trpc.recap.confirmRecipient.useMutation({ meta: { silent: true } });
  const decline = trpc.recap.declineRecipient.useMutation({ meta: { silent: true } });

  if (!token || state.isError) {
    return (
      <NoticeCard title="This link does not work">
        <p className="text-base-content/70">{state.error?.message ?? 'The link has no token: open it from the e-mail again.'}</p>
      </NoticeCard>
    );
  }
  if (state.isPending) {
    return (
      <NoticeCard title="Meeting recaps">
        <span className="loading loading-spinner loading-lg" role="status" aria-label="Loading" />
      </NoticeCard>
    );
  }
  const consent = decline.data ?? confirm.data ?? state.data;
  const busy = confirm.isPending || decline.isPending;
  const failure = confirm.error ?? decline.error;
  const title =
    consent.status === 'confirmed' ? 'You receive these recaps' : consent.status === 'declined' ? 'You will not receive these recaps' : 'Receive meeting recaps?';
  return (
    <NoticeCard title={title}>
      {consent.status === 'pending' ? (
        <>
          <p className="text-base-content/70">
            <strong className="break-all">{consent.ownerEmail}</strong> uses Mbox, a meeting assistant, and asked for the
            summaries of their meetings to be e-mailed to <strong className="break-all">{consent.email}</strong>.
          </p>
          <p className="text-base-content/70">
            If you agree, you will receive a summary of each of their meetings after it ends, until you or they stop it.
            Nothing is sent unless you agree.
          </p>
          {consent.expired && (
            <p role="note" className="text-warning">
              This link is too old to agree with: ask {consent.ownerEmail} to save their e-mail settings again for a new
              one. You can still decline.
            </p>
          )}
        </>
      ) : (
        <Answered consent={consent} />
      )}
      {failure && (
        <p role="alert" className="text-error">
          {failure.message}
        </p>
      )}
      <div className="card-actions justify-center">
        {consent.status !== 'confirmed' && !consent.expired && (
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => confirm.mutate({ token })}>
            Yes, send me the recaps
          </button>
        )}
        {consent.status !== 'declined' && (
          <button type="button" className="btn" disabled={busy} onClick={() => decline.mutate({ token })}>
            {consent.status === 'confirmed' ? 'Stop these e-mails' : 'No, decline'}
          </button>
        )}
      </div>
    </NoticeCard>
  );
}
