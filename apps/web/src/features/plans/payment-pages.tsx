import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PAYMENT_FAILED } from '@mbox/shared/ui-messages';
import { trpc } from '../../lib/trpc';
import { Page } from '../../routes/page';
import { formatValidUntil } from './valid-until';

/** product.md, Screens: both payment pages lead to the Account tab. */
const ACCOUNT_PATH = '/settings?tab=account';
/** Stripe's webhook usually lands within seconds of the redirect; stop asking after about 30 s. */
const PREMIUM_POLL_MS = 2000;
const PREMIUM_POLL_WINDOW_MS = 30_000;

function GoToAccount() {
  return (
    <Link to={ACCOUNT_PATH} className="btn btn-primary">
      Go to Your Account
    </Link>
  );
}

/**
 * /payment-succeeded: the payment page sends the buyer here (with its `session_id`) before the webhook
 * may have reached the server, so the shared settings query is re-read every 2 s (for 30 s) until premium
 * shows (the header's Premium label follows the same cache), then the page says until when. Reached
 * without a payment (no `session_id`) by someone who is not premium, it says so instead of waiting.
 */
export function PaymentSucceededPage() {
  const utils = trpc.useUtils();
  const [params] = useSearchParams();
  const fromCheckout = params.has('session_id');
  const [pollUntil] = useState(() => Date.now() + PREMIUM_POLL_WINDOW_MS);
  const settings = trpc.settings.get.useQuery(undefined, {
    staleTime: 0,
    meta: { silent: true },
    refetchInterval: (query) =>
      !fromCheckout || query.state.data?.premiumActive || Date.now() >= pollUntil ? false : PREMIUM_POLL_MS,
  });
  const active = settings.data?.premiumActive === true;
  const waiting = !active && settings.dataUpdatedAt < pollUntil && !settings.isError;
  // The plan in use changed with the payment: the plan cards read it afresh.
  useEffect(() => {
    if (active) void utils.plans.list.invalidate();
  }, [active, utils]);

  if (!fromCheckout && settings.data && !active) {
    return (
      <Page title="No payment to confirm">
        <p className="mb-6" data-testid="premium-status">
          This page confirms a payment made on the payment page, and none was made from this account. Your account is on
          the free Basic plan.
        </p>
        <div className="flex flex-wrap gap-2">
          <Link to="/subscribe" className="btn btn-primary">
            Choose a plan
          </Link>
          <Link to={ACCOUNT_PATH} className="btn btn-outline">
            Go to Your Account
          </Link>
        </div>
      </Page>
    );
  }

  return (
    <Page title="Payment Successful!">
      <p className="mb-2">Thank you! Your payment went through.</p>
      <p className="mb-6 flex items-center gap-2 text-base-content/80" role="status" data-testid="premium-status">
        {active && settings.data ? (
          `Your premium features are active until ${formatValidUntil(settings.data.premiumUntil)}.`
        ) : waiting ? (
          <>
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            Activating your premium features…
          </>
        ) : (
          'Your premium features will show on your account within a few minutes.'
        )}
      </p>
      <GoToAccount />
    </Page>
  );
}

/** /payment-failed (product.md, Screens, text of product.md, Errors). */
export function PaymentFailedPage() {
  return (
    <Page title="Payment Failed!">
      <p className="mb-6">{PAYMENT_FAILED}</p>
      <GoToAccount />
    </Page>
  );
}
