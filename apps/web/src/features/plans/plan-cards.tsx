import type { PaidPlanId, Plan, PlanFeature } from '@mbox/shared/plans';
import { PAID_PLAN_IDS } from '@mbox/shared/plans';
import { CheckIcon } from '../tools/icons';

function CrossIcon({ className = 'h-4 w-4' }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" className={className} aria-hidden="true">
      <path d="M7 7l10 10M17 7L7 17" />
    </svg>
  );
}

/** A feature's name, and under it what the feature is here when the name alone would promise more. */
export function PlanFeatureText({ feature }: { feature: PlanFeature }) {
  return (
    <span>
      {feature.title}
      {!feature.included && <span className="sr-only"> (not included)</span>}
      {feature.detail && <span className="block text-xs text-base-content/70">{feature.detail}</span>}
    </span>
  );
}

function isPaid(plan: Plan): plan is Plan & { planId: PaidPlanId } {
  return (PAID_PLAN_IDS as readonly string[]).includes(plan.planId);
}

function PlanAction({
  plan,
  busyPlanId,
  onSubscribe,
}: {
  plan: Plan;
  busyPlanId: PaidPlanId | null;
  onSubscribe: (planId: PaidPlanId) => void;
}) {
  if (plan.current) {
    return (
      <button type="button" className="btn btn-disabled" disabled>
        {plan.actionText}
      </button>
    );
  }
  // product.md, States: Enterprise is handled off-site, through an external contact form.
  if (plan.contactUrl) {
    return (
      <a href={plan.contactUrl} target="_blank" rel="noopener noreferrer" className="btn btn-outline">
        {plan.actionText}
      </a>
    );
  }
  if (!isPaid(plan)) {
    return (
      <button type="button" className="btn btn-ghost border-base-300" disabled>
        {plan.actionText}
      </button>
    );
  }
  // product.md, States: while one plan is being subscribed to, every plan button is busy. A plan this server cannot
  // sell is not clickable at all: the reason is shown above the cards, and no payment tab opens.
  const busy = busyPlanId !== null;
  return (
    <button
      type="button"
      className={`btn ${plan.planId === 'pro' ? 'btn-primary' : 'btn-outline btn-primary'}`}
      disabled={busy || plan.unavailable !== null}
      aria-busy={busyPlanId === plan.planId}
      onClick={() => onSubscribe(plan.planId)}
    >
      {busyPlanId === plan.planId && <span className="loading loading-spinner loading-sm" />}
      {plan.actionText}
    </button>
  );
}

/** The plan cards of product.md, Screens / Data, shared by /subscribe and the Settings › Account tab. */
export function PlanCards({
  plans,
  busyPlanId,
  onSubscribe,
}: {
  plans: readonly Plan[];
  busyPlanId: PaidPlanId | null;
  onSubscribe: (planId: PaidPlanId) => void;
}) {
  return (
    <ul className="grid items-stretch gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label="Plans">
      {plans.map((plan) => (
        <li
          key={plan.planId}
          aria-label={plan.title}
          data-testid="plan-card"
          className={`card border bg-base-100 ${plan.current ? 'border-primary ring-1 ring-primary' : 'border-base-300'}`}
        >
          <div className="card-body gap-4 p-5">
            <div>
              <h3 className="flex flex-wrap items-center gap-2 text-lg leading-tight font-semibold">
                {plan.title}
                {plan.current && <span className="badge badge-primary badge-sm">Current</span>}
              </h3>
              <p className="mt-3 flex items-baseline gap-1.5">
                <span className="text-3xl font-bold tracking-tight">{plan.price}</span>
                {plan.interval && <span className="text-sm text-base-content/70">per {plan.interval}</span>}
              </p>
            </div>
            <ul className="flex-1 space-y-2 text-sm">
              {plan.features.map((feature) => (
                <li key={feature.title} className={`flex gap-2 ${feature.included ? '' : 'text-base-content/70'}`}>
                  {feature.included ? (
                    <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-success" />
                  ) : (
                    <CrossIcon className="mt-0.5 h-4 w-4 shrink-0" />
                  )}
                  <PlanFeatureText feature={feature} />
                </li>
              ))}
            </ul>
            <PlanAction plan={plan} busyPlanId={busyPlanId} onSubscribe={onSubscribe} />
          </div>
        </li>
      ))}
    </ul>
  );
}
