import { QueryCache, QueryClient, MutationCache } from '@tanstack/react-query';
import {
  httpBatchLink,
  httpSubscriptionLink,
  splitLink,
  type TRPCLink,
} from '@trpc/client';
import { createTRPCReact, type inferReactQueryProcedureOptions } from '@trpc/react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@mbox/server/router';
import { MAX_REQUEST_URL_LENGTH } from '@mbox/shared/input-hygiene';
import { AUTH_RETRY_LIMIT } from '@mbox/shared/ui-messages';
import { authStore } from './auth';
import { handleApiError, httpStatusOf } from './errors';

export type { AppRouter };
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type ReactQueryOptions = inferReactQueryProcedureOptions<AppRouter>;

export const trpc = createTRPCReact<AppRouter>();

/** Spec §8/§9: a 401 is retried up to 2 times with a refreshed token (only Firebase tokens can refresh). */
export const UNAUTHORIZED_RETRIES = AUTH_RETRY_LIMIT;

export interface QueryMeta extends Record<string, unknown> {
  /** Spec §8: errors of this call are only logged, never toasted. */
  silent?: boolean;
}

function isSilent(meta: Record<string, unknown> | undefined): boolean {
  return meta?.silent === true;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => handleApiError(error, { silent: isSilent(query.meta) }),
    }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => handleApiError(error, { silent: isSilent(mutation.meta) }),
    }),
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (httpStatusOf(error) === 401) {
            if (failureCount >= UNAUTHORIZED_RETRIES) return false;
            // Only a Firebase ID token can be refreshed; a rejected local token means sign in again.
            if (!authStore.canRefresh()) return false;
            void authStore.getToken(true);
            return true;
          }
          return false;
        },
      },
      mutations: { retry: false },
    },
  });
}

/** The links of the app: SSE for subscriptions (bearer via connection params), batched HTTP for the rest. */
export function createLinks(baseUrl = '/trpc'): TRPCLink<AppRouter>[] {
  const url = baseUrl.startsWith('/') && typeof location !== 'undefined' ? `${location.origin}${baseUrl}` : baseUrl;
  return [
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({
        url,
        // EventSource cannot send headers: the server reads the token from the connection params.
        connectionParams: async () => {
          const token = await authStore.getToken();
          return token ? { token } : {};
        },
      }),
      false: httpBatchLink({
        url,
        // A screen reads many calls at once; longer GET batches are split rather than refused (414).
        maxURLLength: MAX_REQUEST_URL_LENGTH,
        headers: async () => {
          const token = await authStore.getToken();
          return token ? { Authorization: `Bearer ${token}` } : {};
        },
      }),
    }),
  ];
}

export function createTrpcClient(links: TRPCLink<AppRouter>[] = createLinks()) {
  return trpc.createClient({ links });
}
