import { trpc } from '../../lib/trpc';
import { PageLoader } from '../../routes/guards';
import { PlanCards } from './plan-cards';
import { useCheckout } from './use-billing';

/**
 * The plan cards with subscribing wired in (spec §4): shared by /subscribe and the Account tab of a
 * Basic user. An error answer (payments not configured, Stripe refused) is shown above the cards.
 */
export function SubscribePlans() {
  const plans = trpc.plans.list.useQuery(undefined, { staleTime: 60_000 });
  const checkout = useCheckout();
  if (plans.isPending) return <PageLoader />;
  if (!plans.data) return <p className="text-error">The plans could not be loaded. Reload the page to try again.</p>;
  return (
    <div className="flex flex-col gap-4">
      {checkout.error && (
        <div
          role="alert"
          className="alert alert-error"
          data-testid="subscribe-error"
          // On a phone the clicked card is far below: bring the answer into view.
          ref={(node) => node?.scrollIntoView({ block: 'nearest', behavior: 'smooth' })}
        >
          {checkout.error}
        </div>
      )}
      <PlanCards plans={plans.data} busyPlanId={checkout.busyPlanId} onSubscribe={(planId) => void checkout.subscribe(planId)} />
    </div>
  );
}
