import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingAccount } from '@mbox/shared/billing';
import { buildPlans } from '@mbox/shared/plans';
import { ERROR_TOAST, SUBSCRIPTION_CANCELLED } from '@mbox/shared/ui-messages';
import { USER_SETTINGS_DEFAULTS, type UserSettings } from '@mbox/shared/user-settings';
import { apiError, createFakeTrpc } from '../../test/fake-trpc';
import { fakeSession, renderRoutes } from '../../test/render';
import { formatValidUntil } from '../plans/valid-until';
import { SubscribePage } from '../plans/subscribe-page';
import AccountTab from './account-tab';

const DAY = 86_400;
const now = Math.floor(Date.now() / 1000);
const premiumSettings: UserSettings = { ...USER_SETTINGS_DEFAULTS, isPremium: true, premiumUntil: now + 30 * DAY, premiumActive: true };

function setup({ premium, account, handlers = {} }: { premium: boolean; account?: BillingAccount; handlers?: Record<string, (input: unknown) => unknown> }) {
  const fake = createFakeTrpc({
    'settings.get': () => (premium ? premiumSettings : USER_SETTINGS_DEFAULTS),
    'plans.list': () => buildPlans(premium ? 'pro' : 'basic', { enterpriseContactUrl: 'https://example.com/contact' }),
    'billing.account': () => account,
    'auth.sessions': () => ({ sessions: [] }),
    'auth.extensionTokens': () => ({ tokens: [] }),
    ...handlers,
  });
  renderRoutes([{ path: '/', element: <AccountTab /> }], { fake, session: fakeSession({ premium }) });
  return fake;
}

afterEach(() => vi.restoreAllMocks());

describe('Settings › Account tab', () => {
  it("Basic user: 'Choose Your Plan' with the plan cards, Basic 'In use'", async () => {
    setup({ premium: false });
    expect(await screen.findByRole('heading', { name: 'Choose Your Plan' })).toBeTruthy();
    const basic = await screen.findByRole('listitem', { name: 'Basic Plan' });
    expect(within(basic).getByRole('button', { name: 'In use' })).toHaveProperty('disabled', true);
    expect(within(screen.getByRole('listitem', { name: 'Enterprise Plan' })).getByRole('link', { name: 'Contact us' }).getAttribute('target')).toBe('_blank');
  });

  it('premium user with a subscription: welcome, features, valid until, cancel after confirming', async () => {
    let cancelled = false;
    const fake = setup({
      premium: true,
      account: { subscription: { planId: 'pro', status: 'active', currentPeriodEnd: now + 30 * DAY, cancelAtPeriodEnd: false }, referralPremiumUntil: 0, canManageBilling: true, paymentsEnabled: true },
      handlers: {
        'billing.cancel': () => {
          cancelled = true;
          return { message: SUBSCRIPTION_CANCELLED };
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Welcome, Premium User!' })).toBeTruthy();
    expect(screen.getByText('All in One Pro Plan')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Plan features' })).getByText('Priority processing')).toBeTruthy();
    expect(screen.getByTestId('valid-until').textContent).toBe(`Valid until ${formatValidUntil(premiumSettings.premiumUntil)}`);
    expect(await screen.findByRole('button', { name: 'Manage billing' })).toBeTruthy();

    const [open] = screen.getAllByRole('button', { name: 'Cancel Subscription' });
    fireEvent.click(open!);
    expect(cancelled).toBe(false);
    fireEvent.click(within(screen.getByRole('dialog', { hidden: true, name: 'Cancel your subscription?' })).getByRole('button', { name: 'Cancel Subscription', hidden: true }));
    expect((await screen.findByRole('status')).textContent).toBe(SUBSCRIPTION_CANCELLED);
    expect(cancelled).toBe(true);
    expect(fake.calls.filter((c) => c.path === 'billing.account').length).toBeGreaterThan(1);
  });

  it("premium through referrals only: no cancel button, says where premium comes from and until when", async () => {
    setup({ premium: true, account: { subscription: null, referralPremiumUntil: now + 10 * DAY, canManageBilling: false, paymentsEnabled: true } });
    expect((await screen.findByTestId('referral-premium')).textContent).toContain(`from referrals, until ${formatValidUntil(now + 10 * DAY)}`);
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Manage billing' })).toBeNull();
  });

  it('shows the error of a refused cancel', async () => {
    setup({
      premium: true,
      account: { subscription: { planId: 'summarizer', status: 'active', currentPeriodEnd: now + DAY, cancelAtPeriodEnd: false }, referralPremiumUntil: 0, canManageBilling: false, paymentsEnabled: true },
      handlers: { 'billing.cancel': () => ({ error: 'Stripe is unreachable. Try again in a minute.' }) },
    });
    fireEvent.click((await screen.findAllByRole('button', { name: 'Cancel Subscription' }))[0]!);
    fireEvent.click(within(screen.getByRole('dialog', { hidden: true, name: 'Cancel your subscription?' })).getByRole('button', { name: 'Cancel Subscription', hidden: true }));
    expect((await screen.findByRole('status')).textContent).toBe('Stripe is unreachable. Try again in a minute.');
  });
});

describe('/subscribe', () => {
  it('busy buttons while subscribing, then the payment page in the tab opened during the click', async () => {
    const tab = { opener: {}, document: document.implementation.createHTMLDocument(''), location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    let answer: (value: { url: string }) => void = () => {};
    const fake = createFakeTrpc({
      'plans.list': () => buildPlans('basic'),
      'billing.subscribe': () => new Promise((resolve) => (answer = resolve)),
    });
    renderRoutes([{ path: '/', element: <SubscribePage /> }], { fake });
    const pro = await screen.findByRole('listitem', { name: 'All in One Pro Plan' });
    fireEvent.click(within(pro).getByRole('button', { name: 'Get Premium' }));
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    for (const button of screen.getAllByRole('button', { name: 'Get Premium' })) expect(button).toHaveProperty('disabled', true);
    await waitFor(() => expect(fake.calls.at(-1)).toEqual({ path: 'billing.subscribe', input: { planID: 'pro' } }));
    answer({ url: 'https://checkout.example/c/1' });
    await waitFor(() => expect(tab.location.href).toBe('https://checkout.example/c/1'));
    await waitFor(() => expect(within(pro).getByRole('button', { name: 'Get Premium' })).toHaveProperty('disabled', false));
  });

  it("shows the server's refusal (payments not configured) and closes the blank tab", async () => {
    const tab = { opener: {}, document: document.implementation.createHTMLDocument(''), location: { href: '' }, close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const fake = createFakeTrpc({
      'plans.list': () => buildPlans('basic'),
      'billing.subscribe': () => {
        throw apiError(503, 'SERVICE_UNAVAILABLE', 'Payments are not configured on this server');
      },
    });
    renderRoutes([{ path: '/', element: <SubscribePage /> }], { fake });
    fireEvent.click((await screen.findAllByRole('button', { name: 'Get Premium' }))[1]!);
    expect((await screen.findByTestId('subscribe-error')).textContent).toBe('Payments are not configured on this server');
    expect(tab.close).toHaveBeenCalledOnce();
    expect(screen.queryByText(ERROR_TOAST)).toBeNull();
  });
});
