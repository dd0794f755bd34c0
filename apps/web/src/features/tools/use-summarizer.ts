import { useCallback, useEffect, useRef, useState } from 'react';
import type { SummarizeOutput, SummarizeResult, SummarizeStreamEvent, SummarySource } from '@mbox/shared/tools';
import { ERROR_TEXT } from '../../lib/errors';
import { trpc } from '../../lib/trpc';
import { reportSummarizerError, reportSummarizerRefusal, summarizerErrorMessage } from './summarizer-errors';
import type { SummarizerRequest } from './summarizer-input';

/** Signed-in pages call /v1/utils, public pages /v1/public/utils (product.md, API). */
export type SummarizerAudience = 'tools' | 'public';

export type SummarizerRun =
  | { status: 'idle' }
  /** `written`: the summary's raw text so far (it streams in as it is written). */
  | { status: 'loading'; source: SummarySource | null; written: string }
  | { status: 'done'; result: SummarizeResult }
  | { status: 'error'; message: string };

/**
 * Longest encoded request sent over the streaming subscription. Subscriptions travel as an
 * EventSource GET whose input sits in the URL, and the server refuses request heads over 16 KiB;
 * a longer pasted text goes through the POST call instead and its summary appears at once.
 */
export const STREAM_INPUT_BUDGET = 8_000;

function fitsInStream(input: unknown): boolean {
  return encodeURIComponent(JSON.stringify(input)).length <= STREAM_INPUT_BUDGET;
}

/**
 * One summarization at a time: a new run (or leaving the page) cancels the one under way.
 * The result arrives through `tools.summarizeStream`, so tokens appear while the model writes;
 * the POST calls (`tools.summary`, `tools.publicSummary`, the REST contract) carry texts too long
 * for a URL. Both paths end in the same states and report errors the same way.
 */
export function useSummarizer(audience: SummarizerAudience) {
  const { client } = trpc.useUtils();
  const [run, setRun] = useState<SummarizerRun>({ status: 'idle' });
  const stop = useRef<(() => void) | null>(null);

  const cancel = useCallback(() => {
    stop.current?.();
    stop.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);

  const summarize = useCallback(
    (request: SummarizerRequest) => {
      cancel();
      let active = true;
      const finish = (next: SummarizerRun) => {
        if (!active) return;
        active = false;
        stop.current?.();
        stop.current = null;
        setRun(next);
      };
      const fail = (error: unknown) => {
        if (!active) return;
        reportSummarizerError(error);
        finish({ status: 'error', message: summarizerErrorMessage(error) });
      };
      const settle = (output: SummarizeOutput) => {
        if (!active) return;
        if ('result' in output) {
          finish({ status: 'done', result: output.result });
          return;
        }
        reportSummarizerRefusal(output.error);
        finish({ status: 'error', message: output.error });
      };

      setRun({ status: 'loading', source: null, written: '' });
      const { mode, ...body } = request;
      const input = { ...body, params: { summaryKey: 'c_summary' as const } };

      if (!fitsInStream({ mode, request: input })) {
        const call = audience === 'public' ? client.tools.publicSummary : client.tools.summary;
        const abort = new AbortController();
        stop.current = () => {
          active = false;
          abort.abort();
        };
        call.mutate(input, { signal: abort.signal }).then(settle, fail);
        return;
      }

      const subscription = client.tools.summarizeStream.subscribe(
        { mode, request: input },
        {
          onData: (event: SummarizeStreamEvent) => {
            if (!active) return;
            switch (event.type) {
              case 'source':
                setRun((prev) => (prev.status === 'loading' ? { ...prev, source: event.source } : prev));
                break;
              case 'token':
                setRun((prev) => (prev.status === 'loading' ? { ...prev, written: prev.written + event.text } : prev));
                break;
              case 'done':
                settle({ result: event.result });
                break;
              case 'error':
                settle({ error: event.error });
                break;
            }
          },
          onError: fail,
          // A lost connection or a 5xx makes the EventSource reconnect, which would start the
          // summary (and count it) again: a summary is one request, so it ends here instead.
          onConnectionStateChange: (state) => {
            if (state.state === 'connecting' && state.error) fail(state.error);
          },
          onComplete: () => finish({ status: 'error', message: ERROR_TEXT.request }),
        },
      );
      stop.current = () => {
        active = false;
        subscription.unsubscribe();
      };
    },
    [audience, cancel, client],
  );

  const reset = useCallback(() => {
    cancel();
    setRun({ status: 'idle' });
  }, [cancel]);

  return { run, summarize, reset };
}
