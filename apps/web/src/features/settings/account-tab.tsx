import { useRef } from 'react';
import { useSession } from '../../lib/session';
import { trpc } from '../../lib/trpc';
import { PageLoader } from '../../routes/guards';
import { CheckIcon } from '../tools/icons';
import { PlanFeatureText } from '../plans/plan-cards';
import { SubscribePlans } from '../plans/subscribe-plans';
import { useBillingAccount, useCancelSubscription, useManageBilling, type BillingAccount } from '../plans/use-billing';
import { formatValidUntil } from '../plans/valid-until';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { AccountDataSection } from './account-data-section';
import { ConnectedExtensionsSection, SessionsSection } from './sessions-section';
import { useUserSettings } from './use-user-settings';

/**
 * Settings › Account tab (product.md, Screens): the plan choice for Basic users, the premium account otherwise;
 * then where the account is signed in and which extensions are connected, and the account's data
 * (download, delete).
 */
export default function AccountTab() {
  return (
    <div className="flex flex-col gap-6">
      <PlanSection />
      <SessionsSection />
      <ConnectedExtensionsSection />
      <AccountDataSection />
    </div>
  );
}

/** The plan choice for Basic users, the premium account otherwise. */
function PlanSection() {
  const session = useSession();
  const { settings, loading } = useUserSettings();
  if (loading) return <PageLoader />;
  if (!settings) return <p className="text-error">The settings could not be loaded. Reload the page to try again.</p>;
  if (!session.premium) {
    return (
      <section aria-labelledby="choose-plan" className="flex flex-col gap-4">
        <h2 id="choose-plan" className="text-2xl font-bold">
          Choose Your Plan
        </h2>
        <SubscribePlans />
      </section>
    );
  }
  return <PremiumAccount premiumUntil={settings.premiumUntil} />;
}

function PremiumAccount({ premiumUntil }: { premiumUntil: number }) {
  const plans = trpc.plans.list.useQuery(undefined, { staleTime: 60_000 });
  const account = useBillingAccount();
  const plan = plans.data?.find((p) => p.current);
  if (plans.isPending || account.isPending) return <PageLoader />;

  return (
    <section aria-labelledby="premium-welcome" className="card max-w-2xl border border-base-300 bg-base-100">
      <div className="card-body gap-5 p-5 sm:p-6">
        <div>
          <h2 id="premium-welcome" className="text-2xl font-bold">
            Welcome, Premium User!
          </h2>
          {plan && <p className="mt-1 text-base-content/70">{plan.title}</p>}
        </div>
        {plan && (
          <ul className="space-y-2 text-sm" aria-label="Plan features">
            {plan.features
              .filter((feature) => feature.included)
              .map((feature) => (
                <li key={feature.title} className="flex gap-2">
                  <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-success" />
                  <PlanFeatureText feature={feature} />
                </li>
              ))}
          </ul>
        )}
        <p data-testid="valid-until">
          Valid until <strong>{formatValidUntil(premiumUntil)}</strong>
        </p>
        {account.data && <BillingDetails account={account.data} />}
      </div>
    </section>
  );
}

function BillingDetails({ account }: { account: BillingAccount }) {
  const { subscription, referralPremiumUntil, canManageBilling } = account;
  // Held here: the answer stays shown after the refreshed account hides the cancel button.
  const cancel = useCancelSubscription();
  return (
    <>
      {subscription?.cancelAtPeriodEnd && (
        <p className="text-base-content/80" data-testid="subscription-ending">
          Your subscription is cancelled: premium stays until {formatValidUntil(subscription.currentPeriodEnd)} and is not
          renewed.
        </p>
      )}
      {!subscription && referralPremiumUntil > 0 && (
        <p className="text-base-content/80" data-testid="referral-premium">
          Your premium comes from referrals, until {formatValidUntil(referralPremiumUntil)}. There is no subscription to
          cancel.
        </p>
      )}
      {subscription && referralPremiumUntil > subscription.currentPeriodEnd && (
        <p className="text-sm text-base-content/70">
          Referral days keep premium until {formatValidUntil(referralPremiumUntil)}, after the subscription ends.
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        {subscription && !subscription.cancelAtPeriodEnd && <CancelSubscription cancel={cancel} />}
        {canManageBilling && <ManageBilling />}
      </div>
      {cancel.outcome && (
        <p role="status" className={cancel.outcome.kind === 'error' ? 'text-error' : 'text-success'}>
          {cancel.outcome.text}
        </p>
      )}
    </>
  );
}

/** product.md, States / Errors: confirm first, then show the answer's message or error. */
function CancelSubscription({ cancel }: { cancel: ReturnType<typeof useCancelSubscription> }) {
  const dialog = useRef<HTMLDialogElement>(null);

  return (
    <>
      <button type="button" className="btn btn-outline btn-error" disabled={cancel.pending} onClick={() => dialog.current?.showModal()}>
        {cancel.pending && <span className="loading loading-spinner loading-sm" />}
        Cancel Subscription
      </button>
      <ConfirmDialog
        ref={dialog}
        title="Cancel your subscription?"
        cancelLabel="Keep subscription"
        confirmLabel="Cancel Subscription"
        onConfirm={() => void cancel.run()}
      >
        It will not renew. You keep premium until the end of the period you paid for.
      </ConfirmDialog>
    </>
  );
}

/** Stripe's Customer Portal (card, invoices), opened in a new tab like the payment page. */
function ManageBilling() {
  const manage = useManageBilling();
  return (
    <>
      <button type="button" className="btn btn-outline" disabled={manage.pending} onClick={() => void manage.open()}>
        {manage.pending && <span className="loading loading-spinner loading-sm" />}
        Manage billing
      </button>
      {manage.error && (
        <p role="alert" className="basis-full text-error">
          {manage.error}
        </p>
      )}
    </>
  );
}
