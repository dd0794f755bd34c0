import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { AppLayout } from '../features/layout/app-layout';
import type { MenuHandle } from '../features/layout/header';
import { PublicLayout } from '../features/layout/public-layout';
import { LoginOnly, PageLoader, RequireAuth } from './guards';
import NotFoundPage, { RouteErrorPage } from './not-found';

/**
 * Route-level code splitting: each page is its own chunk, fetched when the router starts navigating
 * to it (in parallel with the guards), so a fresh load downloads the entry plus one page only.
 */
function page(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

const meetings = page(() => import('./meetings'));
/**
 * A meeting's page fetches its transcript and summary panels together with the page chunk, so the
 * panels (lazy on the screen, to keep '/' small) do not wait for the page to render first.
 */
const meeting = page(async () => {
  const [screen] = await Promise.all([
    import('./meetings'),
    import('../features/meetings/transcript'),
    import('../features/summary/summary-panel'),
  ]);
  return screen;
});

/** The route table of product.md, Screens. Named routes come before '/:id' so they never read as meeting ids. */
export const routes: RouteObject[] = [
  {
    // Render errors and failed chunk loads get a product page, never the router's developer screen.
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <PageLoader />,
    children: [
      { element: <LoginOnly />, children: [{ path: '/login', ...page(() => import('./login')) }] },
      { path: '/uninstall', ...page(() => import('./uninstall')) },
      { path: '/unsubscribe', ...page(() => import('./unsubscribe')) },
      { path: '/recipient', ...page(() => import('./recipient')) },
      { path: '/extension', ...page(() => import('../features/extension/extension-page')) },
      // A meeting shared read-only: anyone with the link, signed in or not.
      { path: '/shared/:token', ...page(() => import('./shared')) },
      {
        path: '/public',
        element: <PublicLayout />,
        children: [
          { index: true, ...page(() => import('./public')) },
          { path: 'summarization', ...page(() => import('./public-summarization')) },
          { path: 'youtube', ...page(() => import('./public-youtube')) },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          { path: '/onboarding', ...page(() => import('./onboarding')) },
          { path: '/onboarding/:step', ...page(() => import('./onboarding')) },
          {
            element: <AppLayout />,
            children: [
              { path: '/', ...meetings },
              { path: '/dashboard', ...page(() => import('./dashboard')) },
              { path: '/settings', ...page(() => import('./settings')) },
              { path: '/tools', ...page(() => import('./tools')) },
              { path: '/tools/summarization', ...page(() => import('./tools-summarization')) },
              { path: '/tools/youtube', ...page(() => import('./tools-youtube')) },
              { path: '/changelog', ...page(() => import('./changelog')) },
              { path: '/outbox', ...page(() => import('./outbox')) },
              { path: '/search', ...page(() => import('./search')) },
              { path: '/action-items', ...page(() => import('./action-items')) },
              { path: '/ask', ...page(() => import('./ask')) },
              { path: '/subscribe', ...page(() => import('./subscribe')) },
              { path: '/payment-succeeded', ...page(() => import('./payment-succeeded')) },
              { path: '/payment-failed', ...page(() => import('./payment-failed')) },
              // Any single segment is a meeting id: an unknown one shows the meeting's not-found view. A
              // meeting's page is under 'Last meetings' in the menu.
              { path: '/:id', ...meeting, handle: { menuItem: '/' } satisfies MenuHandle },
            ],
          },
        ],
      },
      // Deeper unknown paths ('/no/such/page', '/tools/nope', '/public/nope') match nothing else.
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
