import { Link } from 'react-router';
import { PUBLIC_FREE_PLAN_FEATURES, findPlan, type PlanFeature } from '@mbox/shared/plans';
import { PlanFeatureText } from '../plans/plan-cards';
import { CheckIcon } from './icons';
import { ToolCards, ToolsHero } from './tools-landing';

/** product.md, Screens: every Get Premium button of the public pricing goes through login to the plan choice. */
export const GET_PREMIUM_PATH = '/login?redirect=subscribe';

interface PricingCard {
  title: string;
  price: string;
  /** 'per month' under a paid price. */
  interval: string | null;
  features: readonly PlanFeature[];
  highlighted: boolean;
}

function pricingCards(): PricingCard[] {
  const paid = (planId: 'pro' | 'summarizer', highlighted: boolean): PricingCard => {
    const plan = findPlan(planId);
    return {
      title: plan.title,
      price: plan.price,
      interval: plan.interval ? `per ${plan.interval}` : null,
      features: plan.features.filter((feature) => feature.included),
      highlighted,
    };
  };
  return [
    {
      title: 'Free',
      price: '$0',
      interval: null,
      features: PUBLIC_FREE_PLAN_FEATURES.map((title) => ({ title, included: true })),
      highlighted: false,
    },
    paid('pro', true),
    paid('summarizer', false),
  ];
}

function Pricing() {
  return (
    <section aria-labelledby="pricing-heading" className="mt-14">
      <h2 id="pricing-heading" className="text-2xl font-bold tracking-tight">
        Pricing
      </h2>
      <p className="mt-1 text-base-content/70">Start free. Upgrade when you need more.</p>
      <ul className="mt-6 grid items-stretch gap-4 md:grid-cols-3">
        {pricingCards().map((card) => (
          <li
            key={card.title}
            aria-label={card.title}
            className={`card border bg-base-100 ${card.highlighted ? 'border-primary shadow-lg ring-1 ring-primary' : 'border-base-300'}`}
          >
            <div className="card-body gap-4">
              <div>
                <h3 className="flex flex-wrap items-center gap-2 text-lg font-semibold">
                  {card.title}
                  {card.highlighted && <span className="badge badge-primary badge-sm">Popular</span>}
                </h3>
                <p className="mt-3 flex items-baseline gap-1.5">
                  <span className="text-4xl font-bold tracking-tight">{card.price}</span>
                  {card.interval && <span className="text-sm text-base-content/70">{card.interval}</span>}
                </p>
              </div>
              <ul className="flex-1 space-y-2 text-sm">
                {card.features.map((feature) => (
                  <li key={feature.title} className="flex gap-2">
                    <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-success" />
                    <PlanFeatureText feature={feature} />
                  </li>
                ))}
              </ul>
              {card.interval ? (
                <Link to={GET_PREMIUM_PATH} className={`btn ${card.highlighted ? 'btn-primary' : 'btn-outline btn-primary'}`}>
                  Get Premium
                </Link>
              ) : (
                <Link to="/public/summarization" className="btn btn-ghost border-base-300">
                  Start summarizing
                </Link>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** /public (product.md, Screens): the tools landing without login, plus pricing. */
export function PublicLanding() {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 sm:py-12">
      <ToolsHero title="AI Tools">
        Free AI summaries of texts, web pages and YouTube videos. No sign-up needed.
      </ToolsHero>
      <ToolCards base="/public" />
      <Pricing />
    </div>
  );
}
