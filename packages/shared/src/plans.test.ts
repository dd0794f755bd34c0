import { describe, expect, it } from 'vitest';
import { buildPlans, findPlan, plansSchema } from './plans.js';

describe('buildPlans', () => {
  it('falls back to the Basic plan as current, In use', () => {
    const plans = plansSchema.parse(buildPlans('basic', { enterpriseContactUrl: 'https://example.com/sales' }));
    expect(plans.map((p) => [p.planId, p.title, p.price, p.current])).toEqual([
      ['basic', 'Basic Plan', 'Free', true],
      ['pro', 'All in One Pro Plan', '$7.99', false],
      ['summarizer', 'Premium Summarizer Plan', '$3.99', false],
      ['enterprise', 'Enterprise Plan', 'Custom', false],
    ]);
    expect(plans[0]?.actionText).toBe('In use');
    expect(plans.filter((p) => p.current)).toHaveLength(1);
  });

  it('lists what Basic includes and excludes (product.md, Data)', () => {
    const basic = findPlan('basic');
    expect(basic.features.filter((f) => f.included).map((f) => f.title)).toEqual([
      'Basic AI summaries',
      'Real-time transcription with speaker detection',
    ]);
    expect(basic.features.filter((f) => !f.included).map((f) => f.title)).toEqual([
      'AI transcription improvements',
      'Advanced summaries',
      'Advanced AI model',
      'End-to-end encryption',
      'Priority support',
    ]);
  });

  it('prices the premium plans per month with the features of product.md, Limits', () => {
    const pro = findPlan('pro');
    expect([pro.amountCents, pro.interval]).toEqual([799, 'month']);
    expect(pro.features.map((f) => f.title)).toEqual(
      expect.arrayContaining(['Unlimited daily summaries', 'Priority processing', 'Advanced AI model', 'End-to-end encryption']),
    );
    const summarizer = findPlan('summarizer');
    expect([summarizer.amountCents, summarizer.interval]).toEqual([399, 'month']);
    expect(summarizer.features.map((f) => f.title)).toEqual([
      'Unlimited AI summaries per meeting',
      'Advanced transcription analysis',
      'Priority support',
      'End-to-end encryption',
    ]);
  });

  it('keeps the encryption feature\'s name and says what it is: at rest, on your server', () => {
    for (const plan of buildPlans()) {
      const encryption = plan.features.find((f) => f.title === 'End-to-end encryption');
      expect(encryption?.detail, plan.title).toBe('Your meeting texts encrypted at rest, on your server');
    }
    expect(findPlan('pro').features.filter((f) => f.title !== 'End-to-end encryption').every((f) => f.detail === undefined)).toBe(true);
  });

  it('says why a paid plan cannot be bought here, and nothing for the others', () => {
    const plans = buildPlans('basic', { unavailable: { pro: 'No payments here', summarizer: 'No payments here' } });
    expect(plans.map((p) => [p.planId, p.unavailable])).toEqual([
      ['basic', null],
      ['pro', 'No payments here'],
      ['summarizer', 'No payments here'],
    ]);
  });

  it('flags the given plan', () => {
    const plans = buildPlans('pro');
    expect(plans.find((p) => p.current)?.planId).toBe('pro');
    expect(plans.find((p) => p.planId === 'pro')?.actionText).toBe('In use');
    expect(plans.find((p) => p.planId === 'basic')?.actionText).not.toBe('In use');
  });

  it('sends Enterprise to the configured contact page, and leaves it out without one', () => {
    const contact = 'https://example.com/contact-sales';
    expect(buildPlans('basic', { enterpriseContactUrl: contact }).find((p) => p.planId === 'enterprise')).toMatchObject({
      title: 'Enterprise Plan',
      contactUrl: contact,
      actionText: 'Contact us',
    });
    expect(buildPlans().map((p) => p.planId)).toEqual(['basic', 'pro', 'summarizer']);
    expect(buildPlans('pro', { enterpriseContactUrl: contact }).every((p) => p.planId === 'enterprise' || p.contactUrl === null)).toBe(true);
  });

  it('hands out copies that callers cannot use to alter the catalogue', () => {
    buildPlans()[0]!.features[0]!.title = 'changed';
    expect(buildPlans()[0]!.features[0]!.title).toBe('Basic AI summaries');
  });
});
