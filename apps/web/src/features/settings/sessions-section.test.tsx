import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ExtensionTokenInfo, SessionInfo } from '@mbox/shared/auth';
import { createFakeTrpc } from '../../test/fake-trpc';
import { fakeSession, renderRoutes } from '../../test/render';
import { ConnectedExtensionsSection, SessionsSection } from './sessions-section';

const at = Date.UTC(2026, 9, 1, 12, 0);
const chrome = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

function sessions(): SessionInfo[] {
  return [
    { id: 's1', userAgent: chrome, createdAt: at, lastUsedAt: at + 60_000, expiresAt: at + 30 * 86_400_000, current: true },
    { id: 's2', userAgent: firefox, createdAt: at - 86_400_000, lastUsedAt: at, expiresAt: at + 29 * 86_400_000, current: false },
  ];
}

describe('Settings › Account › Where you are signed in', () => {
  it('lists sessions with their browser, marks this browser, and revokes another one', async () => {
    let listed = sessions();
    const fake = createFakeTrpc({
      'auth.sessions': () => ({ sessions: listed }),
      'auth.revokeSession': (input) => {
        listed = listed.filter((s) => s.id !== (input as { id: string }).id);
        return { revoked: true };
      },
    });
    const endLocally = vi.fn();
    renderRoutes([{ path: '/', element: <SessionsSection /> }], { fake, session: fakeSession({ endLocally }) });
    const list = await screen.findByRole('list', { name: 'Signed-in sessions' });
    const mine = within(list).getByRole('listitem', { name: 'Chrome on macOS' });
    expect(within(mine).getByText('This browser')).toBeTruthy();
    expect(within(mine).getByRole('button', { name: 'Sign out' })).toBeTruthy();
    const other = within(list).getByRole('listitem', { name: 'Firefox on Linux' });
    expect(within(other).queryByText('This browser')).toBeNull();
    fireEvent.click(within(other).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Firefox on Linux' })).toBeNull());
    expect(fake.calls.filter((c) => c.path === 'auth.revokeSession').map((c) => c.input)).toEqual([{ id: 's2' }]);
    expect(endLocally).not.toHaveBeenCalled();
  });

  it('signs out everywhere after confirming, extensions included, and ends this tab too', async () => {
    const fake = createFakeTrpc({
      'auth.sessions': () => ({ sessions: sessions() }),
      'auth.logoutEverywhere': () => ({ sessions: 2, extensionTokens: 1 }),
    });
    const endLocally = vi.fn();
    renderRoutes([{ path: '/', element: <SessionsSection /> }], { fake, session: fakeSession({ endLocally }) });
    await screen.findByRole('list', { name: 'Signed-in sessions' });
    const [open] = screen.getAllByRole('button', { name: 'Sign out everywhere' });
    fireEvent.click(open!);
    expect(fake.calls.some((c) => c.path === 'auth.logoutEverywhere')).toBe(false);
    fireEvent.click(within(screen.getByRole('dialog', { hidden: true })).getByRole('button', { name: 'Sign out everywhere', hidden: true }));
    await waitFor(() => expect(endLocally).toHaveBeenCalledTimes(1));
    expect(fake.calls.filter((c) => c.path === 'auth.logoutEverywhere').map((c) => c.input)).toEqual([{ extensionTokens: true }]);
    expect(await screen.findByText('Signed out 2 sessions and 1 extension')).toBeTruthy();
  });
});

describe('Settings › Account › Connected extensions', () => {
  it('lists extension tokens with their dates and revokes one', async () => {
    let tokens: ExtensionTokenInfo[] = [
      { id: 't1', label: 'Extension in Chrome on macOS', createdAt: at, lastUsedAt: null, expiresAt: at + 90 * 86_400_000 },
      { id: 't2', label: 'Extension in Chrome on Windows', createdAt: at, lastUsedAt: at + 3_600_000, expiresAt: at + 90 * 86_400_000 },
    ];
    const fake = createFakeTrpc({
      'auth.extensionTokens': () => ({ tokens }),
      'auth.revokeExtensionToken': (input) => {
        tokens = tokens.filter((t) => t.id !== (input as { id: string }).id);
        return { revoked: true };
      },
    });
    renderRoutes([{ path: '/', element: <ConnectedExtensionsSection /> }], { fake });
    const list = await screen.findByRole('list', { name: 'Connected extensions' });
    const mac = within(list).getByRole('listitem', { name: 'Extension in Chrome on macOS' });
    expect(mac.textContent).toMatch(/not used yet/);
    expect(within(list).getByRole('listitem', { name: 'Extension in Chrome on Windows' }).textContent).toMatch(/last used/);
    fireEvent.click(within(mac).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Extension in Chrome on macOS' })).toBeNull());
    expect(fake.calls.filter((c) => c.path === 'auth.revokeExtensionToken').map((c) => c.input)).toEqual([{ id: 't1' }]);
  });

  it('says when no extension is connected', async () => {
    renderRoutes([{ path: '/', element: <ConnectedExtensionsSection /> }], { fake: createFakeTrpc({ 'auth.extensionTokens': () => ({ tokens: [] }) }) });
    expect(await screen.findByText('No extension is connected.')).toBeTruthy();
  });
});
