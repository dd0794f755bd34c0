import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { USER_SETTINGS_DEFAULTS } from '@mbox/shared/user-settings';
import { createFakeTrpc } from '../test/fake-trpc';
import { renderRoutes } from '../test/render';
import OnboardingPage from './onboarding';

const routes = [
  { path: '/', element: <p>home</p> },
  { path: '/settings', element: <p>settings</p> },
  { path: '/onboarding', element: <OnboardingPage /> },
  { path: '/onboarding/:step', element: <OnboardingPage /> },
];

function setup(path: string) {
  const fake = createFakeTrpc({
    'settings.completeOnboarding': () => ({ ...USER_SETTINGS_DEFAULTS, onboardingComplete: true }),
    'settings.get': () => ({ ...USER_SETTINGS_DEFAULTS, onboardingComplete: true }),
    'referral.accept': () => ({ status: 'accepted' }),
  });
  return { fake, ...renderRoutes(routes, { path, fake }) };
}

describe('onboarding (product.md, Screens / States)', () => {
  it('walks the steps in order with next and back', async () => {
    setup('/onboarding');
    expect(await screen.findByText('Welcome to Mbox')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Next' }));
    expect(await screen.findByText('Join a meeting')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Back' }));
    expect(await screen.findByText('Welcome to Mbox')).toBeTruthy();
  });

  it('Skip onboarding completes it, accepts the referral code, and goes to /', async () => {
    const { fake, router } = setup('/onboarding/security?code=REF123');
    fireEvent.click(await screen.findByRole('button', { name: 'Skip onboarding' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const paths = fake.calls.map((c) => c.path);
    expect(paths.indexOf('settings.completeOnboarding')).toBeLessThan(paths.indexOf('referral.accept'));
    expect(fake.calls.find((c) => c.path === 'referral.accept')?.input).toEqual({ code: 'REF123' });
    expect(
      await screen.findByText('You have successfully accepted the referral, enjoy your premium features!'),
    ).toBeTruthy();
  });

  it('the last step finishes onboarding without a referral call when there is no code', async () => {
    const { fake, router } = setup('/onboarding/summary');
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(fake.calls.map((c) => c.path)).not.toContain('referral.accept');
  });

  it('finishing goes to the page asked for before sign-in, path and query, and only in this app', async () => {
    const { router } = setup(`/onboarding/summary?redirect=${encodeURIComponent('/settings?tab=summary')}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    expect(router.state.location.search).toBe('?tab=summary');

    const away = setup(`/onboarding/summary?redirect=${encodeURIComponent('/.//evil.test')}`);
    fireEvent.click((await screen.findAllByRole('button', { name: 'Next' })).at(-1)!);
    await waitFor(() => expect(away.router.state.location.pathname).toBe('/'));
  });
});
