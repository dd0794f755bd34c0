import { Link, useSearchParams } from 'react-router';
import { trpc } from '../../lib/trpc';
import { NoticeCard } from '../ui/notice-card';

/**
 * /unsubscribe?token=… (public): the link at the bottom of a recap e-mail. One click on the button turns
 * recap e-mails off without signing in; opening the link alone changes nothing (mail scanners open links).
 */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const state = trpc.recap.unsubscribeState.useQuery({ token }, { enabled: token.length > 0, retry: false, meta: { silent: true } });
  const unsubscribe = trpc.recap.unsubscribe.useMutation({ meta: { silent: true } });

  if (!token || state.isError) {
    return (
      <NoticeCard title="This link does not work">
        <p className="text-base-content/70">
          {state.error?.message ?? 'The unsubscribe link has no token.'} You can also turn recap e-mails off in{' '}
          <Link className="link link-primary" to="/settings">
            Settings
          </Link>
          .
        </p>
      </NoticeCard>
    );
  }
  if (state.isPending) {
    return (
      <NoticeCard title="Recap e-mails">
        <span className="loading loading-spinner loading-lg" role="status" aria-label="Loading" />
      </NoticeCard>
    );
  }
  const done = unsubscribe.data ?? (state.data.sendSummary ? null : state.data);
  if (done) {
    return (
      <NoticeCard title="You are unsubscribed">
        <p className="text-base-content/70" role="status">
          Mbox will no longer e-mail meeting recaps to <strong className="break-all">{done.email}</strong>. Your meetings and
          summaries stay in Mbox. To get recaps again, turn on “Send the summary after a meeting” in{' '}
          <Link className="link link-primary" to="/settings">
            Settings
          </Link>
          .
        </p>
      </NoticeCard>
    );
  }
  return (
    <NoticeCard title="Stop recap e-mails?">
      <p className="text-base-content/70">
        Mbox e-mails a recap to <strong className="break-all">{state.data.email}</strong> after each meeting. You will no
        longer receive them.
      </p>
      {unsubscribe.isError && (
        <p role="alert" className="text-error">
          {unsubscribe.error.message}
        </p>
      )}
      <button type="button" className="btn btn-primary" disabled={unsubscribe.isPending} onClick={() => unsubscribe.mutate({ token })}>
        Unsubscribe
      </button>
    </NoticeCard>
  );
}
