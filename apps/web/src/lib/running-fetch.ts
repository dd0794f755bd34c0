import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Waits for a fetch of the query that is running now, if one is, and says whether there was one.
 * A stream that has just started listening uses it: a fetch begun before that may have read the data
 * before the events the stream will never send, so its answer is followed by one more read.
 */
export async function settleRunningFetch(queryClient: QueryClient, queryKey: QueryKey): Promise<boolean> {
  if (queryClient.isFetching({ queryKey, exact: true }) === 0) return false;
  // With cancelRefetch off, a refetch of a query already fetching answers that fetch's promise.
  await queryClient.refetchQueries({ queryKey, exact: true }, { cancelRefetch: false, throwOnError: false });
  return true;
}
