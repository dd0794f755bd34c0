import { trpc } from '../../lib/trpc';
import { PageLoader } from '../../routes/guards';
import { PlanCards } from './plan-cards';
import { useCheckout } from './use-billing';

/**
 * The plan cards with subscribing wired in (product.md, States): shared by /subscribe and the Account tab of a
 * Basic user. An error answer (payments not configured, Stripe refused) is shown above the cards.
 */
export function SubscribePlans() {
  const plans = trpc.plans.list.useQuery(undefined, { staleTime: 60_000 });
  const checkout = useCheckout();
  if (plans.isPending) return <PageLoader />;
  if (!plans.data) return <p className="text-error">The plans could not be loaded. Reload the page to try again.</p>;
  // Said before anyone clicks: a plan this server cannot sell (no payments set up, no price) says why.
  const reasons = [...new Set(plans.data.filter((plan) => !plan.current && plan.unavailable).map((plan) => plan.unavailable))];
  return (
    <div className="flex flex-col gap-4">
      {reasons.length > 0 && (
        <div role="note" className="alert alert-info alert-soft" data-testid="plans-unavailable">
          <span>
            {reasons.map((reason) => (
              <span key={reason} className="block">
                {reason}.
              </span>
            ))}
          </span>
        </div>
      )}
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
