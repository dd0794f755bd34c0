import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { invoiceSubscriptionId, planOfPrice, subscriptionSnapshot } from './stripe.js';

const base = { id: 'sub_1', customer: 'cus_1', status: 'active', cancel_at_period_end: false, metadata: { planId: 'pro' } };

describe('subscriptionSnapshot', () => {
  it('reads the period end from the items (API 2025-03-31 and later), the latest when several', () => {
    const snapshot = subscriptionSnapshot({
      ...base,
      items: { data: [{ current_period_end: 1_800_000_000, price: { id: 'price_pro' } }, { current_period_end: 1_800_000_100, price: { id: 'price_x' } }] },
    });
    expect(snapshot).toEqual({
      externalId: 'sub_1',
      customerId: 'cus_1',
      status: 'active',
      cancelAtPeriodEnd: false,
      currentPeriodEnd: new Date(1_800_000_100_000),
      priceIds: ['price_pro', 'price_x'],
      metadata: { planId: 'pro' },
    });
  });

  it('reads the period end from the subscription itself (earlier API versions) and an expanded customer', () => {
    const snapshot = subscriptionSnapshot({ ...base, customer: { id: 'cus_2', object: 'customer' }, current_period_end: 1_700_000_000, items: { data: [{ price: { id: 'price_pro' } }] } });
    expect(snapshot).toMatchObject({ customerId: 'cus_2', currentPeriodEnd: new Date(1_700_000_000_000) });
  });

  it('fails loudly on an object that is not a subscription', () => {
    expect(() => subscriptionSnapshot({ id: 'in_1', object: 'invoice' })).toThrow();
  });
});

describe('invoiceSubscriptionId', () => {
  it('finds the subscription of an invoice in either API shape', () => {
    expect(invoiceSubscriptionId({ parent: { subscription_details: { subscription: 'sub_new' } } })).toBe('sub_new');
    expect(invoiceSubscriptionId({ subscription: 'sub_old' })).toBe('sub_old');
    expect(invoiceSubscriptionId({ subscription: { id: 'sub_expanded' } })).toBe('sub_expanded');
    expect(invoiceSubscriptionId({ parent: null })).toBeNull();
  });
});

describe('planOfPrice', () => {
  it('maps the configured prices to their plans and nothing else', () => {
    const config = loadConfig({ STRIPE_PRICE_PRO: 'price_a', STRIPE_PRICE_SUMMARIZER: 'price_b' });
    expect([planOfPrice(config, 'price_a'), planOfPrice(config, 'price_b'), planOfPrice(config, 'price_c')]).toEqual(['pro', 'summarizer', null]);
  });
});
