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
import { observable, type Unsubscribable } from '@trpc/server/observable';
import { csrfHeaders, refreshSession } from './auth';
import { handleApiError, httpStatusOf } from './errors';

export type { AppRouter };
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type ReactQueryOptions = inferReactQueryProcedureOptions<AppRouter>;

export const trpc = createTRPCReact<AppRouter>();

/** product.md, Errors / Limits: a 401 is retried up to 2 times, each after a successful session refresh. */
export const UNAUTHORIZED_RETRIES = AUTH_RETRY_LIMIT;

export interface QueryMeta extends Record<string, unknown> {
  /** product.md, Errors: errors of this call are only logged, never toasted. */
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
      // A 401 was already retried after refreshing the session (sessionRefreshLink); others are not retried.
      queries: { refetchOnWindowFocus: false, retry: false },
      mutations: { retry: false },
    },
  });
}

/**
 * product.md, Errors: a call answered 401 is retried after the session is refreshed, up to UNAUTHORIZED_RETRIES
 * times; when the refresh fails the 401 stands (and signs the user out).
 */
export function sessionRefreshLink(refresh: () => Promise<boolean> = refreshSession): TRPCLink<AppRouter> {
  return () =>
    ({ op, next }) =>
      observable((observer) => {
        let subscription: Unsubscribable | null = null;
        let closed = false;
        const attempt = (retriesLeft: number) => {
          subscription = next(op).subscribe({
            next: (value) => observer.next(value),
            complete: () => observer.complete(),
            error: (error) => {
              if (retriesLeft === 0 || httpStatusOf(error) !== 401) return observer.error(error);
              void refresh().then((refreshed) => {
                if (closed) return;
                if (refreshed) attempt(retriesLeft - 1);
                else observer.error(error);
              });
            },
          });
        };
        attempt(UNAUTHORIZED_RETRIES);
        return () => {
          closed = true;
          subscription?.unsubscribe();
        };
      });
}

/**
 * The links of the app: SSE for subscriptions, batched HTTP for the rest. Both authenticate by the
 * session cookie (same-origin requests send it; EventSource too), never by a token in the URL.
 */
export function createLinks(baseUrl = '/trpc'): TRPCLink<AppRouter>[] {
  const url = baseUrl.startsWith('/') && typeof location !== 'undefined' ? `${location.origin}${baseUrl}` : baseUrl;
  return [
    sessionRefreshLink(),
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({ url }),
      false: httpBatchLink({
        url,
        // A screen reads many calls at once; longer GET batches are split rather than refused (414).
        maxURLLength: MAX_REQUEST_URL_LENGTH,
        // Double submit: mutations signed in by cookie must repeat the CSRF cookie in a header.
        headers: () => csrfHeaders(),
      }),
    }),
  ];
}

export function createTrpcClient(links: TRPCLink<AppRouter>[] = createLinks()) {
  return trpc.createClient({ links });
}
