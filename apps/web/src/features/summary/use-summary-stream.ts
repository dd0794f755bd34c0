import type { Unsubscribable } from '@trpc/server/observable';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { GenerateSummaryInput } from '@mbox/shared/generation';
import type { Summary } from '@mbox/shared/summary';
import { handleApiError, reportEmptyResult } from '../../lib/errors';
import { trpc } from '../../lib/trpc';
import { useRefreshAiUsage } from '../ai-usage/ai-usage-note';
import { isEmptyResult, upsertSummary } from './prompt-options';

/** A generation whose answer is arriving: which picker entry it belongs to and the text so far. */
export interface SummaryStream {
  optionId: string;
  title: string;
  /** The model's raw output so far (see streamPreview). */
  text: string;
}

/**
 * Generates a summary through the summary.generateStream subscription: tokens are collected as they
 * arrive, the stored summary of the final event goes into the summary-list cache. Subscription
 * errors never reach the QueryClient caches, so they are handed to the one error mapping here.
 * Leaving the screen unsubscribes, which cancels the generation on the server. However it ends,
 * today's AI count is read again; after a failure the list too (the server may have stored the
 * summary before the stream broke: choosing the type again then shows it, nothing is generated).
 */
export function useSummaryStream(
  meetingId: string,
  /** Called once per generation when it ends: with the stored summary, or null when it failed. */
  onSettled: (optionId: string, summary: Summary | null) => void,
) {
  const utils = trpc.useUtils();
  const refreshUsage = useRefreshAiUsage();
  const [stream, setStream] = useState<SummaryStream | null>(null);
  const subscription = useRef<Unsubscribable | null>(null);
  const settled = useRef(onSettled);
  useEffect(() => {
    settled.current = onSettled;
  });
  useEffect(() => () => subscription.current?.unsubscribe(), []);

  const start = useCallback(
    (optionId: string, title: string, input: GenerateSummaryInput) => {
      subscription.current?.unsubscribe();
      setStream({ optionId, title, text: '' });
      let ended = false;
      const finish = (summary: Summary | null) => {
        if (ended) return;
        ended = true;
        subscription.current?.unsubscribe();
        subscription.current = null;
        setStream(null);
        refreshUsage();
        if (!summary) void utils.summary.list.invalidate({ id: meetingId });
        settled.current(optionId, summary);
      };
      subscription.current = utils.client.summary.generateStream.subscribe(input, {
        onData: (event) => {
          if (event.type === 'token') {
            setStream((current) => (current ? { ...current, text: current.text + event.text } : current));
            return;
          }
          if (isEmptyResult(event.summary.text)) {
            reportEmptyResult();
            finish(null);
            return;
          }
          utils.summary.list.setData({ id: meetingId }, (list) => (list ? upsertSummary(list, event.summary) : list));
          finish(event.summary);
        },
        onError: (error) => {
          handleApiError(error);
          finish(null);
        },
        // The SSE link would silently reconnect after a 5xx (an LLM outage) and generate again:
        // a generation that failed once is reported and ends here instead.
        onConnectionStateChange: (state) => {
          if (state.state !== 'connecting' || !state.error) return;
          handleApiError(state.error);
          finish(null);
        },
        // The server closed the stream without an answer (e.g. it is shutting down).
        onComplete: () => finish(null),
      });
    },
    [meetingId, utils, refreshUsage],
  );

  return { stream, start };
}
