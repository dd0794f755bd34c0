import { TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable, type Observer } from '@trpc/server/observable';
import type { AppRouter } from '../lib/trpc';

type Handler = (input: unknown) => unknown;

/** An error as the server would send it (status and code in `data`). */
export function apiError(httpStatus: number, code: string, message = code): TRPCClientError<AppRouter> {
  return TRPCClientError.from({ error: { message, code: -32000, data: { code, httpStatus } } });
}

/**
 * A tRPC link answering queries and mutations from handlers, and letting tests push subscription
 * data: no server, no network, the real client and react-query code paths.
 */
export function createFakeTrpc(handlers: Record<string, Handler>) {
  const subscribers = new Map<string, Set<{ input: unknown; observer: Observer<unknown, unknown> }>>();
  const calls: { path: string; input: unknown }[] = [];

  const link: TRPCLink<AppRouter> = () => ({ op }) =>
    observable((observer) => {
      calls.push({ path: op.path, input: op.input });
      if (op.type === 'subscription') {
        const entry = { input: op.input, observer: observer as Observer<unknown, unknown> };
        const set = subscribers.get(op.path) ?? new Set();
        set.add(entry);
        subscribers.set(op.path, set);
        observer.next({ result: { type: 'started' } });
        return () => set.delete(entry);
      }
      const handler = handlers[op.path];
      Promise.resolve()
        .then(() => {
          if (!handler) throw apiError(404, 'NOT_FOUND', `No procedure ${op.path}`);
          return handler(op.input);
        })
        .then(
          (data) => {
            observer.next({ result: { type: 'data', data } });
            observer.complete();
          },
          (error: unknown) =>
            observer.error(error instanceof TRPCClientError ? error : TRPCClientError.from(error as Error)),
        );
      return () => {};
    });

  return {
    link,
    calls,
    /** Sends `data` to every open subscription of `path`. */
    push(path: string, data: unknown) {
      for (const { observer } of subscribers.get(path) ?? []) {
        observer.next({ result: { type: 'data', data } } as never);
      }
    },
    /** Says every open subscription of `path` (re)started, as the SSE link does after a reconnect. */
    restart(path: string) {
      for (const { observer } of subscribers.get(path) ?? []) observer.next({ result: { type: 'started' } } as never);
    },
    /** Ends every open subscription of `path` with `error`, as the SSE link does when the server refuses. */
    fail(path: string, error: TRPCClientError<AppRouter>) {
      for (const { observer } of [...(subscribers.get(path) ?? [])]) observer.error(error);
    },
    subscriberCount: (path: string) => subscribers.get(path)?.size ?? 0,
  };
}
