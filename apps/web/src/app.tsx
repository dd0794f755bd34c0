import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { Toaster } from './features/layout/toaster';
import { SessionProvider } from './lib/session';
import { createQueryClient, createTrpcClient, trpc } from './lib/trpc';
import { routes } from './routes';

type TrpcClient = ReturnType<typeof createTrpcClient>;

/** Providers shared by the app and its tests (tests pass their own clients and router). */
export function AppProviders({
  queryClient,
  trpcClient,
  children,
}: {
  queryClient: QueryClient;
  trpcClient: TrpcClient;
  children: ReactNode;
}) {
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          {children}
          <Toaster />
        </SessionProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(() => createTrpcClient());
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProviders queryClient={queryClient} trpcClient={trpcClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
