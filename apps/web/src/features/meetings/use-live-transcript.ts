import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { MeetingEvent } from '@mbox/shared/capture-events';
import {
  MESSAGE_PAGE_FIRST_LIMIT,
  MESSAGE_PAGE_MAX_LIMIT,
  type Meeting,
  type Message,
} from '@mbox/shared/meeting';
import { settleRunningFetch } from '../../lib/running-fetch';
import { trpc } from '../../lib/trpc';
import { cacheFromPage, mergeIntoCache, mergeNextPage, mergeOpeningPage, type TranscriptCache } from './transcript/transcript-cache';
import { GROUPED_LIST_INPUT } from './use-meetings';

export type TranscriptState =
  | { status: 'loading' }
  | { status: 'missing' }
  | {
      status: 'ready';
      meet: Meeting;
      messages: Message[];
      /** Capture gaps (captions off, capture broken), in time order. */
      gaps: MeetingEvent[];
      /** Lines in the meeting (known from the pages; live lines may add more). */
      total: number;
      /** True while earlier or later pages are still being read in the background. */
      loadingMore: boolean;
    };

const NO_GAPS: MeetingEvent[] = [];

/** Query key of a meeting's client-side transcript (pages + live lines + edits in flight). */
export function transcriptQueryKey(meetingId: string) {
  return ['transcript', meetingId] as const;
}

export function updateTranscript(
  queryClient: QueryClient,
  meetingId: string,
  change: (cache: TranscriptCache) => TranscriptCache,
): void {
  queryClient.setQueryData<TranscriptCache>(transcriptQueryKey(meetingId), (cache) => cache && change(cache));
}

/**
 * A meeting's transcript, paged so a 10,000-line meeting paints its first screen at once:
 * - the opening page (meeting.messages without a cursor) is small and read first. Which end it is
 *   the server decides from the meeting: a finished meeting is read like a document, from the top;
 *   a live one like a chat, from the bottom, where new lines arrive. The reader sees the right end
 *   first either way, and the lines beside it are the next ones loaded;
 * - the rest follows in large pages in the background (not on scroll): filters, the speaker list
 *   and 'scroll to the end' need every line, and 10 requests of 1,000 lines cost under a second;
 * - lines streamed by meeting.onLines merge into the same cache, as do the answers of marks,
 *   comments and fixes, so one copy of each line exists and edits in flight survive live updates.
 * meeting.get stays the REST answer of product.md, API; the web app never needs its one giant response.
 * Mount it keyed by meeting id: changing the id then resets it (product.md, States).
 */
export function useLiveTranscript(meetingId: string, focusLine: string | null = null): TranscriptState {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const key = transcriptQueryKey(meetingId);
  const [pagesFailed, setPagesFailed] = useState(false);

  const transcript = useQuery({
    queryKey: key,
    // The opening page; everything after it is merged into this cache with setQueryData.
    queryFn: async () =>
      cacheFromPage(await utils.client.meeting.messages.query({ id: meetingId, limit: MESSAGE_PAGE_FIRST_LIMIT })),
    // product.md, Errors: load failures are only logged and show the missing placeholder.
    meta: { silent: true },
    staleTime: Infinity,
    retry: false,
  });

  // The title and finish time change while a meeting runs; the list already follows meeting events.
  const listed = trpc.meeting.grouped.useQuery(GROUPED_LIST_INPUT, {
    meta: { silent: true },
    select: (data) => data.groups.flatMap((g) => g.meetings).find((m) => m.key === meetingId),
  });

  // Gaps are few; they are read whole and again whenever the server says the meeting changed (the list
  // refetches on meeting.changed, which the server emits when the extension reports a gap).
  const gaps = trpc.meeting.events.useQuery({ id: meetingId }, { meta: { silent: true }, retry: false });
  const { refetch: refetchGaps } = gaps;
  const listUpdatedAt = listed.dataUpdatedAt;
  useEffect(() => {
    if (listUpdatedAt) void refetchGaps();
  }, [listUpdatedAt, refetchGaps]);

  const next = transcript.data?.next ?? null;
  useEffect(() => {
    if (!next || pagesFailed) return;
    let stale = false;
    utils.client.meeting.messages.query({ id: meetingId, cursor: next, limit: MESSAGE_PAGE_MAX_LIMIT }).then(
      (page) => {
        if (!stale) updateTranscript(queryClient, meetingId, (cache) => mergeNextPage(cache, page));
      },
      (error: unknown) => {
        console.warn('[mbox] transcript pages stopped loading', error);
        if (!stale) setPagesFailed(true);
      },
    );
    return () => {
      stale = true;
    };
  }, [next, pagesFailed, meetingId, queryClient, utils]);

  // A line to open at (`?line=`) that no page read so far holds: the page around it is read and merged
  // at once, so a line far down shows without waiting for every page before it.
  const loaded = transcript.data !== undefined;
  useEffect(() => {
    if (!focusLine || !loaded) return;
    const cache = queryClient.getQueryData<TranscriptCache>(transcriptQueryKey(meetingId));
    if (!cache || cache.messages.some((m) => m.key === focusLine)) return;
    let stale = false;
    utils.client.meeting.messages.query({ id: meetingId, around: focusLine, limit: MESSAGE_PAGE_FIRST_LIMIT }).then(
      (page) => {
        if (!stale) updateTranscript(queryClient, meetingId, (current) => mergeIntoCache(current, page.messages));
      },
      (error: unknown) => console.warn('[mbox] the page around the line to open could not be read', error),
    );
    return () => {
      stale = true;
    };
  }, [focusLine, loaded, meetingId, queryClient, utils]);

  trpc.meeting.onLines.useSubscription(
    { meetingId },
    {
      onStarted: () => {
        // (Re)connected: lines sent while we were away are at the live end, in the opening page. It is
        // merged like a background page, not refetched through the query: a refetch's answer would
        // replace the cache and could drop pages merged while it was in flight. The first read, if
        // still running, may have begun before the stream listened: it answers first.
        void settleRunningFetch(queryClient, key).then(() => {
          if (!queryClient.getQueryData(key)) return;
          return utils.client.meeting.messages.query({ id: meetingId, limit: MESSAGE_PAGE_FIRST_LIMIT }).then(
            (page) => updateTranscript(queryClient, meetingId, (cache) => mergeOpeningPage(cache, page)),
            (error: unknown) => console.warn('[mbox] transcript refresh after reconnect failed', error),
          );
        });
      },
      onData: (line) => updateTranscript(queryClient, meetingId, (cache) => mergeIntoCache(cache, [line])),
      onError: (error) => console.warn('[mbox] live transcript stopped', error),
    },
  );

  if (transcript.isPending) return { status: 'loading' };
  if (transcript.isError || !transcript.data) return { status: 'missing' };
  const { data } = transcript;
  return {
    status: 'ready',
    meet: listed.data ? { ...data.meet, ...listed.data } : data.meet,
    messages: data.messages,
    gaps: gaps.data ?? NO_GAPS,
    total: Math.max(data.total, data.messages.length),
    loadingMore: data.next !== null && !pagesFailed,
  };
}
