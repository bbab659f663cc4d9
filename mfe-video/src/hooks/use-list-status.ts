import { useState } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessage } from '@kol/shared-sdk';

/** What a page shows of a shared list while it loads, fails, or is asked for again. */
export interface ListStatus {
  /** No answer yet, and no failure to show meanwhile. */
  loading: boolean;
  /** Why the list could not be read, in the SDK's words; kept while it is asked for again. */
  error: string | null;
  /** Asks for the list again (重新加载). */
  reload: () => void;
}

/**
 * The status of a list shared by several components of a page (a picker per character, each
 * with the page around them). TanStack Query forgets a failure when the list is asked for again;
 * here the failure stays shown until an answer replaces it, and `loading` is only the wait for
 * the first answer. Otherwise a page that shows its pickers once the list has answered would
 * take them away again while a new picker's mount asks for the failed list anew, and put them
 * back when it fails again, without end.
 */
export function useListStatus(query: UseQueryResult<unknown>): ListStatus {
  const [failure, setFailure] = useState<unknown>(null);
  if (query.error && query.error !== failure) setFailure(query.error);
  if (query.isSuccess && failure !== null) setFailure(null);
  const shown = query.error ?? (query.isFetching ? failure : null);
  return {
    loading: query.isPending && shown === null,
    error: shown ? errorMessage(shown) : null,
    reload: () => void query.refetch(),
  };
}
