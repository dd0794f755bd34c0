import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { USER_SETTINGS_DEFAULTS, type UserSettings } from '@mbox/shared/user-settings';
import { PAYMENT_FAILED } from '@mbox/shared/ui-messages';
import { createFakeTrpc } from '../../test/fake-trpc';
import { renderRoutes } from '../../test/render';
import { PaymentFailedPage, PaymentSucceededPage } from './payment-pages';
import { formatValidUntil } from './valid-until';

describe('payment pages', () => {
  it('succeeded: re-reads the settings until the webhook made the user premium, then says until when', async () => {
    const until = Math.floor(Date.now() / 1000) + 30 * 86_400;
    let reads = 0;
    const fake = createFakeTrpc({
      'settings.get': (): UserSettings => {
        reads += 1;
        // The webhook lands between the first and the second read.
        return reads < 2 ? USER_SETTINGS_DEFAULTS : { ...USER_SETTINGS_DEFAULTS, isPremium: true, premiumUntil: until, premiumActive: true };
      },
      'plans.list': () => [],
    });
    renderRoutes([{ path: '/payment-succeeded', element: <PaymentSucceededPage /> }], { fake, path: '/payment-succeeded?session_id=cs_test_1' });
    expect(screen.getByRole('heading', { name: 'Payment Successful!' })).toBeTruthy();
    expect((await screen.findByTestId('premium-status')).textContent).toContain('Activating your premium features');
    const status = await screen.findByText(`Your premium features are active until ${formatValidUntil(until)}.`, {}, { timeout: 5000 });
    expect(status).toBeTruthy();
    expect(reads).toBe(2);
    expect(screen.getByRole('link', { name: 'Go to Your Account' }).getAttribute('href')).toBe('/settings?tab=account');
  });

  it('succeeded, reached without a payment by a Basic user: says there is nothing to confirm, waits for nothing', async () => {
    let reads = 0;
    const fake = createFakeTrpc({
      'settings.get': (): UserSettings => {
        reads += 1;
        return USER_SETTINGS_DEFAULTS;
      },
    });
    renderRoutes([{ path: '/', element: <PaymentSucceededPage /> }], { fake });
    expect(await screen.findByRole('heading', { name: 'No payment to confirm' })).toBeTruthy();
    expect(screen.queryByText(/Activating your premium features/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Choose a plan' }).getAttribute('href')).toBe('/subscribe');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(reads).toBe(1);
  });

  it('failed: the text of product.md, Errors and the way to the account', () => {
    renderRoutes([{ path: '/', element: <PaymentFailedPage /> }]);
    expect(screen.getByRole('heading', { name: 'Payment Failed!' })).toBeTruthy();
    expect(screen.getByText(PAYMENT_FAILED)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Your Account' }).getAttribute('href')).toBe('/settings?tab=account');
  });
});
