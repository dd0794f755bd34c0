import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PersonalToken } from '@mbox/shared/access-tokens';
import { createFakeTrpc } from '../../test/fake-trpc';
import { renderRoutes } from '../../test/render';
import AccessTokensTab from './access-tokens-tab';

const at = Date.UTC(2026, 9, 1, 12, 0);
const existing: PersonalToken = { id: 't1', name: 'Cursor', scope: 'write', createdAt: at, lastUsedAt: null };

describe('Settings › Access tokens', () => {
  it('creates a token, shows its secret once, lists it and revokes it after confirming', async () => {
    let listed: PersonalToken[] = [existing];
    const fake = createFakeTrpc({
      'accessTokens.list': () => ({ tokens: listed }),
      'accessTokens.create': (input) => {
        const { name, scope } = input as { name: string; scope: 'read' | 'write' };
        const accessToken: PersonalToken = { id: 't2', name, scope, createdAt: at + 1000, lastUsedAt: null };
        listed = [accessToken, ...listed];
        return { token: 'mbox_pat_secret', accessToken };
      },
      'accessTokens.revoke': (input) => {
        listed = listed.filter((t) => t.id !== (input as { id: string }).id);
        return { revoked: true };
      },
    });
    renderRoutes([{ path: '/', element: <AccessTokensTab /> }], { fake });
    const list = await screen.findByRole('list', { name: 'Your access tokens' });
    expect(within(list).getByRole('listitem', { name: 'Cursor' }).textContent).toContain('never used');

    // An empty name is refused in place, naming the field's rule.
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('name must not be empty')).toBeTruthy();
    expect(fake.calls.some((c) => c.path === 'accessTokens.create')).toBe(false);

    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'Claude Desktop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    const secret = await screen.findByLabelText('New access token');
    expect((secret as HTMLInputElement).value).toBe('mbox_pat_secret');
    expect(fake.calls.filter((c) => c.path === 'accessTokens.create').map((c) => c.input)).toEqual([{ name: 'Claude Desktop', scope: 'read' }]);
    expect(within(screen.getByRole('list', { name: 'Your access tokens' })).getByRole('listitem', { name: 'Claude Desktop' }).textContent).toContain('read');

    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByLabelText('New access token')).toBeNull();
    expect(screen.queryByText(/mbox_pat_secret/)).toBeNull();

    const cursor = within(screen.getByRole('list', { name: 'Your access tokens' })).getByRole('listitem', { name: 'Cursor' });
    fireEvent.click(within(cursor).getByRole('button', { name: 'Revoke' }));
    fireEvent.click(within(cursor).getByRole('button', { name: 'Revoke token', hidden: true }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Cursor' })).toBeNull());
    expect(fake.calls.filter((c) => c.path === 'accessTokens.revoke').map((c) => c.input)).toEqual([{ id: 't1' }]);
  });
});
