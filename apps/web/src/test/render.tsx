import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router';
import { Toaster } from '../features/layout/toaster';
import { SessionContext, type Session } from '../lib/session';
import { createQueryClient, trpc } from '../lib/trpc';
import type { createFakeTrpc } from './fake-trpc';

export function fakeSession(overrides: Partial<Session> = {}): Session {
  return {
    status: 'signed-in',
    mode: 'local',
    user: { id: 'u1', email: 'ada@example.com', name: 'Ada' },
    onboarded: true,
    premium: false,
    login: async () => null,
    logout: async () => {},
    endLocally: () => {},
    ...overrides,
  };
}

/** Renders routes in a memory router with real tRPC/react-query clients over a fake link. */
export function renderRoutes(
  routes: RouteObject[],
  {
    path = '/',
    session = fakeSession(),
    fake,
    queryClient = createQueryClient(),
  }: { path?: string; session?: Session; fake?: ReturnType<typeof createFakeTrpc>; queryClient?: QueryClient } = {},
) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const client = trpc.createClient({ links: fake ? [fake.link] : [] });
  const wrap = (children: ReactNode) => (
    <trpc.Provider client={client} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <SessionContext.Provider value={session}>
          {children}
          <Toaster />
        </SessionContext.Provider>
      </QueryClientProvider>
    </trpc.Provider>
  );
  const result = render(wrap(<RouterProvider router={router} />));
  return { ...result, router, queryClient };
}
