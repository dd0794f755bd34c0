import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../test/render';
import ExtensionPage, { EXTENSION_ZIP_URL } from './extension-page';

const routes = [{ path: '/extension', element: <ExtensionPage /> }];

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('/extension', () => {
  it('offers the package this server built, with the developer-mode steps', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    renderRoutes(routes, { path: '/extension' });
    const download = await screen.findByRole('link', { name: 'Download the extension' });
    await vi.waitFor(() => expect(download.getAttribute('aria-disabled')).toBe('false'));
    expect(download.getAttribute('href')).toBe(EXTENSION_ZIP_URL);
    expect(fetch).toHaveBeenCalledWith(EXTENSION_ZIP_URL, { method: 'HEAD' });
    expect(screen.getByText('Switch on developer mode')).toBeTruthy();
    expect(screen.getByText('chrome://extensions')).toBeTruthy();
    expect(screen.getByText('Load it')).toBeTruthy();
  });

  it('says how to build the package when the server has none', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 404 })));
    renderRoutes(routes, { path: '/extension' });
    expect((await screen.findByRole('alert')).textContent).toContain('npm run build');
    expect(screen.queryByRole('link', { name: 'Download the extension' })).toBeNull();
  });

  it('skips the server step only on the origin the extension signs in from by default', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 200 })));
    renderRoutes(routes, { path: '/extension' });
    // jsdom serves tests from http://localhost:3000, one of the extension's default servers.
    expect(window.location.origin).toBe('http://localhost:3000');
    expect(await screen.findByText('Sign in')).toBeTruthy();
    expect(screen.queryByText('Connect it to this server')).toBeNull();
  });
});
