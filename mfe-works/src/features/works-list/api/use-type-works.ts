import { useCallback, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getWorks, type WorkSummary, errorMessage } from '@kol/shared-sdk';
import { WORKS_KEY, worksKey, type WorksInput } from '../../../lib/query-keys';
import type { WorksQuery } from '../hooks/use-works-query';

export const WORKS_PAGE_SIZE = 12;
/** How often the shown page is fetched again while one of its works is being made. */
export const WORKS_POLL_MS = 2000;

/** A work whose newest task is still being made (a work never generated has no task). */
export function isMaking(work: WorkSummary): boolean {
  return work.taskId !== null && (work.state === 'queued' || work.state === 'running');
}

/**
 * One page of one type's works (`get_works`), a query under `worksKey` of what is asked. While
 * a shown work is being made the same page is fetched again every `pollMs` (`refetchInterval`),
 * so its stage and percent move: one call a tick for the whole page, rather than a progress
 * stream per card. Polling stops once nothing shown is being made (a failed tick keeps the cards
 * shown, so it goes on while they run), when the query changes and on unmount.
 */
export function useTypeWorks(query: WorksQuery, pollMs = WORKS_POLL_MS) {
  const { type, flag, keyword, pageIndex, seriesId } = query;
  const client = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);
  const input: WorksInput = {
    type,
    // A series' episodes are listed whatever their tab, in episode order.
    ...(seriesId === null ? { flag } : { seriesId }),
    pageIndex,
    pageSize: WORKS_PAGE_SIZE,
    ...(keyword ? { keyword } : {}),
  };
  const works = useQuery({
    queryKey: worksKey(input),
    queryFn: ({ signal }) => getWorks(input, { signal }),
    refetchInterval: (current) => (current.state.data?.items.some(isMaking) ? pollMs : false),
  });

  return {
    items: works.data?.items ?? [],
    total: works.data?.total ?? 0,
    error: works.error ? errorMessage(works.error) : null,
    /** Nothing of this query is known yet (first load, or a tab, page or type not shown before). */
    loading: works.isPending,
    /** A fetch after an action is under way; the cards shown stay. */
    refreshing,
    /**
     * Fetches the page again (after an action, or 重试 after a failure). The works changed, so
     * every other page of them is fetched again when next shown.
     */
    reload: useCallback(() => {
      setRefreshing(true);
      void client.invalidateQueries({ queryKey: WORKS_KEY }).finally(() => setRefreshing(false));
    }, [client]),
  };
}
