import { useSyncExternalStore } from 'react';
import { SUCCESS_TOAST_DURATION_MS, TOAST_DURATION_MS } from '@mbox/shared/ui-messages';

/** product.md, Errors / Limits: toasts clear after 5000 ms; success toasts 5 s by default. */
export { TOAST_DURATION_MS };

export interface Toast {
  id: number;
  kind: 'error' | 'success';
  message: string;
}

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function set(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

function show(kind: Toast['kind'], message: string, durationMs: number): number {
  // The same message twice in a row (a burst of failing calls) shows once, with its timer restarted.
  const existing = toasts.find((t) => t.kind === kind && t.message === message);
  const id = existing?.id ?? nextId++;
  if (!existing) set([...toasts, { id, kind, message }]);
  clearTimeout(timers.get(id));
  timers.set(
    id,
    setTimeout(() => dismissToast(id), durationMs),
  );
  return id;
}

export function dismissToast(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  set(toasts.filter((t) => t.id !== id));
}

export const toast = {
  error: (message: string, durationMs = TOAST_DURATION_MS) => show('error', message, durationMs),
  success: (message: string, durationMs = SUCCESS_TOAST_DURATION_MS) => show('success', message, durationMs),
  clear: () => {
    for (const id of timers.keys()) clearTimeout(timers.get(id));
    timers.clear();
    set([]);
  },
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => toasts;

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
