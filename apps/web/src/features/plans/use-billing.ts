import { useState } from 'react';
import type { BillingAccount } from '@mbox/shared/billing';
import type { PaidPlanId } from '@mbox/shared/plans';
import { refusalOrReport } from '../../lib/errors';
import { trpc } from '../../lib/trpc';
import { openCheckout } from './open-checkout';

export type { BillingAccount };

/** Subscribing to a plan (product.md, States): every plan button busy meanwhile, the payment page in a new tab. */
export function useCheckout() {
  const checkout = trpc.billing.subscribe.useMutation({ meta: { silent: true } });
  const [busyPlanId, setBusyPlanId] = useState<PaidPlanId | null>(null);
  const [error, setError] = useState<string | null>(null);

  const subscribe = async (planId: PaidPlanId) => {
    if (busyPlanId) return;
    setBusyPlanId(planId);
    setError(null);
    try {
      // Each click creates a fresh Checkout Session.
      setError(await openCheckout(() => checkout.mutateAsync({ planID: planId })));
    } catch (failure) {
      setError(refusalOrReport(failure));
    } finally {
      setBusyPlanId(null);
    }
  };

  return { busyPlanId, error, subscribe };
}

/** Where the user's premium comes from, for the Account tab. */
export function useBillingAccount() {
  return trpc.billing.account.useQuery(undefined, { staleTime: 0 });
}

export type CancelOutcome = { kind: 'message' | 'error'; text: string };

/** Cancelling at period end (product.md, States / Errors): the answer's message or error is shown. */
export function useCancelSubscription() {
  const utils = trpc.useUtils();
  const cancel = trpc.billing.cancel.useMutation({ meta: { silent: true } });
  const [outcome, setOutcome] = useState<CancelOutcome | null>(null);

  const run = async () => {
    setOutcome(null);
    try {
      const answer = await cancel.mutateAsync();
      setOutcome('message' in answer ? { kind: 'message', text: answer.message } : { kind: 'error', text: answer.error });
      await Promise.all([utils.billing.account.invalidate(), utils.settings.get.invalidate()]);
    } catch (failure) {
      // product.md, Errors: a refused cancel shows the server's own text (plan unknown, Stripe unreachable).
      const text = refusalOrReport(failure);
      if (text) setOutcome({ kind: 'error', text });
    }
  };

  return { run, pending: cancel.isPending, outcome };
}

/** Opens Stripe's Customer Portal in a new tab, the way the payment page opens. */
export function useManageBilling() {
  const portal = trpc.billing.portal.useMutation({ meta: { silent: true } });
  const [error, setError] = useState<string | null>(null);

  const open = async () => {
    setError(null);
    try {
      setError(await openCheckout(() => portal.mutateAsync()));
    } catch (failure) {
      setError(refusalOrReport(failure));
    }
  };

  return { open, pending: portal.isPending, error };
}
