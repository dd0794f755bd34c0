import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useLocation, type RouteObject } from 'react-router';
import { fakeSession, renderRoutes } from '../test/render';
import { LoginOnly, RequireAuth, redirectTarget } from './guards';

function Where({ name }: { name: string }) {
  const location = useLocation();
  return (
    <p data-testid="where">
      {name} {location.pathname}
      {location.search}
    </p>
  );
}

const routes: RouteObject[] = [
  { element: <LoginOnly />, children: [{ path: '/login', element: <Where name="login" /> }] },
  {
    element: <RequireAuth />,
    children: [
      { path: '/onboarding', element: <Where name="onboarding" /> },
      { path: '/onboarding/:step', element: <Where name="onboarding-step" /> },
      { path: '/', element: <Where name="home" /> },
      { path: '/subscribe', element: <Where name="subscribe" /> },
      { path: '/settings', element: <Where name="settings" /> },
      { path: '/:id', element: <Where name="meeting" /> },
    ],
  },
];

const where = () => screen.getByTestId('where').textContent;

describe('route guards (product.md, Screens)', () => {
  it('sends an unauthenticated user to /login, keeping the page asked for: path and query', async () => {
    renderRoutes(routes, { path: '/settings?code=abc&x=1', session: fakeSession({ status: 'signed-out', user: null }) });
    expect(await screen.findByTestId('where')).toHaveProperty('textContent', 'login /login?redirect=%2Fsettings%3Fcode%3Dabc%26x%3D1');
  });

  it('keeps the query of / as it is on the way to /login', async () => {
    renderRoutes(routes, { path: '/?code=abc', session: fakeSession({ status: 'signed-out', user: null }) });
    expect(await screen.findByTestId('where')).toHaveProperty('textContent', 'login /login?code=abc');
  });

  it('sends a user who is not onboarded to /onboarding with the page asked for, and leaves them there', async () => {
    renderRoutes(routes, { path: '/settings?tab=summary', session: fakeSession({ onboarded: false }) });
    await screen.findByTestId('where');
    expect(where()).toBe('onboarding /onboarding?redirect=%2Fsettings%3Ftab%3Dsummary');
  });

  it('brings a signed-in user from /login through onboarding with the page asked for', async () => {
    renderRoutes(routes, { path: `/login?redirect=${encodeURIComponent('/abc?line=l9')}`, session: fakeSession({ onboarded: false }) });
    await screen.findByTestId('where');
    expect(where()).toBe('onboarding /onboarding?redirect=%2Fabc%3Fline%3Dl9');
  });

  it('shows a loader, not the page, while the user state is unknown', () => {
    renderRoutes(routes, { path: '/settings', session: fakeSession({ status: 'loading' }) });
    expect(screen.queryByTestId('where')).toBeNull();
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
  });

  it('sends a signed-in user with a redirect parameter to that target', async () => {
    renderRoutes(routes, { path: '/?redirect=subscribe' });
    await screen.findByTestId('where');
    expect(where()).toBe('subscribe /subscribe');
  });

  it('sends a signed-in user who is not onboarded to /onboarding', async () => {
    renderRoutes(routes, { path: '/', session: fakeSession({ onboarded: false }) });
    await screen.findByTestId('where');
    expect(where()).toBe('onboarding /onboarding');
  });

  it('carries a referral code from /login through to onboarding', async () => {
    renderRoutes(routes, { path: '/login?code=REF123', session: fakeSession({ onboarded: false }) });
    await screen.findByTestId('where');
    expect(where()).toBe('onboarding /onboarding?code=REF123');
  });

  it('leaves a user who is not onboarded on an onboarding step', async () => {
    renderRoutes(routes, { path: '/onboarding/security', session: fakeSession({ onboarded: false }) });
    await screen.findByTestId('where');
    expect(where()).toBe('onboarding-step /onboarding/security');
  });

  it('lets an onboarded user through', async () => {
    renderRoutes(routes, { path: '/settings' });
    await screen.findByTestId('where');
    expect(where()).toBe('settings /settings');
  });

  it('sends a signed-in user away from /login to the redirect target', async () => {
    renderRoutes(routes, { path: '/login?redirect=subscribe' });
    await screen.findByTestId('where');
    expect(where()).toBe('subscribe /subscribe');
  });

  it('sends a signed-in user away from /login to / without a redirect', async () => {
    renderRoutes(routes, { path: '/login' });
    await screen.findByTestId('where');
    expect(where()).toBe('home /');
  });

  it('sends a signed-in user with a redirect out of the app to /, not to a crash', async () => {
    for (const target of ['/.//evil.test', '//evil.test', 'https://evil.test']) {
      const { unmount } = renderRoutes(routes, { path: `/login?redirect=${encodeURIComponent(target)}` });
      await screen.findByTestId('where');
      expect(where(), target).toBe('home /');
      unmount();
    }
  });

  it('shows /login to a signed-out user', async () => {
    renderRoutes(routes, { path: '/login?redirect=subscribe', session: fakeSession({ status: 'signed-out', user: null }) });
    await screen.findByTestId('where');
    expect(where()).toBe('login /login?redirect=subscribe');
  });
});

describe('redirectTarget', () => {
  it('turns the parameter into an in-app path', () => {
    expect(redirectTarget('?redirect=subscribe')).toBe('/subscribe');
    expect(redirectTarget('?redirect=%2Fsettings%3Ftab%3Daccount')).toBe('/settings?tab=account');
    expect(redirectTarget('?other=1')).toBeNull();
  });

  it('sends anything but a path of the app to /', () => {
    expect(redirectTarget('?redirect=//evil.example')).toBe('/');
    expect(redirectTarget('?redirect=https://evil.example')).toBe('/');
    expect(redirectTarget('?redirect=/\\evil.example')).toBe('/');
    // Resolves to //evil.test: the old filter let it through and the router crashed on it.
    expect(redirectTarget('?redirect=/.//evil.test')).toBe('/');
  });
});
