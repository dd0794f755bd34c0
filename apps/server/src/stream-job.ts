/**
 * Runs `job` and yields the events it emits, as they come, then returns its result: the body of a
 * streaming subscription. When the job fails or the subscriber leaves early (the client went away),
 * the job is aborted and `onUndelivered` (if given) runs once — e.g. to give back a daily use nobody received.
 */
export async function* streamJob<Event, Result>(
  job: (emit: (event: Event) => void, signal: AbortSignal) => Promise<Result>,
  options: { signals: readonly (AbortSignal | undefined)[]; onUndelivered?: () => Promise<void> },
): AsyncGenerator<Event, Result> {
  const cancel = new AbortController();
  const signals = options.signals.filter((s): s is AbortSignal => s !== undefined);
  const events: Event[] = [];
  let settled = false;
  let wake: (() => void) | undefined;
  const running = job(
    (event) => {
      events.push(event);
      wake?.();
    },
    AbortSignal.any([cancel.signal, ...signals]),
  ).finally(() => {
    settled = true;
    wake?.();
  });
  // Awaited below; this only keeps a failure after an early exit from being an unhandled rejection.
  running.catch(() => {});
  let delivered = false;
  try {
    for (;;) {
      if (events.length > 0) yield events.shift()!;
      else if (settled) break;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
    const result = await running;
    delivered = true;
    return result;
  } finally {
    if (!delivered) {
      cancel.abort();
      await running.catch(() => {});
      await options.onUndelivered?.();
    }
  }
}
