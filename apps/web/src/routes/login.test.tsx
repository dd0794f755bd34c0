import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LOGIN_LOCAL, LOGIN_WITH_GOOGLE } from '@mbox/shared/ui-messages';
import { fakeSession, renderRoutes } from '../test/render';
import LoginPage from './login';

describe('login screen (product.md, Screens / States)', () => {
  it('shows the documented texts', async () => {
    renderRoutes([{ path: '/login', element: <LoginPage /> }], {
      path: '/login',
      session: fakeSession({ status: 'signed-out', user: null }),
    });
    expect(await screen.findByText('meet smarter')).toBeTruthy();
    expect(screen.getByText('Login now!')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'privacy policy' })).toBeTruthy();
  });

  it('local mode: the button says what it does and is disabled while login is in progress, then enables it again', async () => {
    let finish: () => void = () => {};
    const login = vi.fn(() => new Promise<string | null>((resolve) => (finish = () => resolve(null))));
    renderRoutes([{ path: '/login', element: <LoginPage /> }], {
      path: '/login',
      session: fakeSession({ status: 'signed-out', user: null, login }),
    });
    const button = await screen.findByRole('button', { name: LOGIN_LOCAL });
    expect(button).toHaveProperty('disabled', false);

    fireEvent.change(screen.getByLabelText('E-mail of a local account (optional)'), {
      target: { value: ' grace@example.com ' },
    });
    fireEvent.click(button);
    expect(screen.getByRole('button', { name: LOGIN_LOCAL })).toHaveProperty('disabled', true);
    // A second click while busy starts no second login.
    fireEvent.click(screen.getByRole('button', { name: LOGIN_LOCAL }));
    expect(login).toHaveBeenCalledTimes(1);
    expect(login).toHaveBeenCalledWith({ email: 'grace@example.com' });

    await act(async () => finish());
    expect(screen.getByRole('button', { name: LOGIN_LOCAL })).toHaveProperty('disabled', false);
  });

  it("offers no local e-mail field in Firebase mode, and keeps 'Login with Google'", async () => {
    renderRoutes([{ path: '/login', element: <LoginPage /> }], {
      path: '/login',
      session: fakeSession({ status: 'signed-out', user: null, mode: 'firebase' }),
    });
    await screen.findByText('Login now!');
    expect(screen.getByRole('button', { name: LOGIN_WITH_GOOGLE })).toBeTruthy();
    expect(screen.queryByRole('button', { name: LOGIN_LOCAL })).toBeNull();
    expect(screen.queryByLabelText('E-mail of a local account (optional)')).toBeNull();
  });

  it('says in the card why a sign-in failed, and clears it on the next attempt', async () => {
    const reason = 'Local sign-in is only allowed from this machine: open the app at http://localhost';
    const login = vi.fn<() => Promise<string | null>>().mockResolvedValueOnce(reason).mockReturnValueOnce(new Promise(() => {}));
    renderRoutes([{ path: '/login', element: <LoginPage /> }], {
      path: '/login',
      session: fakeSession({ status: 'signed-out', user: null, login }),
    });
    fireEvent.click(await screen.findByRole('button', { name: LOGIN_LOCAL }));
    expect((await screen.findByRole('alert')).textContent).toBe(reason);
    fireEvent.click(screen.getByRole('button', { name: LOGIN_LOCAL }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
