import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeSession, renderRoutes } from '../test/render';
import LoginPage from './login';

describe('login screen (spec §2, §4)', () => {
  it('shows the spec texts', async () => {
    renderRoutes([{ path: '/login', element: <LoginPage /> }], {
      path: '/login',
      session: fakeSession({ status: 'signed-out', user: null }),
    });
    expect(await screen.findByText('meet smarter')).toBeTruthy();
    expect(screen.getByText('Login now!')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'privacy policy' })).toBeTruthy();
  });

  it('disables Login with Google while login is in progress, then enables it again', async () => {
    let finish: () => void = () => {};
    const login = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    renderRoutes([{ path: '/login', element: <LoginPage /> }], {
      path: '/login',
      session: fakeSession({ status: 'signed-out', user: null, login }),
    });
    const button = await screen.findByRole('button', { name: 'Login with Google' });
    expect(button).toHaveProperty('disabled', false);

    fireEvent.change(screen.getByLabelText('E-mail of a local account (optional)'), {
      target: { value: ' grace@example.com ' },
    });
    fireEvent.click(button);
    expect(screen.getByRole('button', { name: 'Login with Google' })).toHaveProperty('disabled', true);
    // A second click while busy starts no second login.
    fireEvent.click(screen.getByRole('button', { name: 'Login with Google' }));
    expect(login).toHaveBeenCalledTimes(1);
    expect(login).toHaveBeenCalledWith({ email: 'grace@example.com' });

    await act(async () => finish());
    expect(screen.getByRole('button', { name: 'Login with Google' })).toHaveProperty('disabled', false);
  });

  it('offers no local e-mail field in Firebase mode', async () => {
    renderRoutes([{ path: '/login', element: <LoginPage /> }], {
      path: '/login',
      session: fakeSession({ status: 'signed-out', user: null, mode: 'firebase' }),
    });
    await screen.findByText('Login now!');
    expect(screen.queryByLabelText('E-mail of a local account (optional)')).toBeNull();
  });
});
