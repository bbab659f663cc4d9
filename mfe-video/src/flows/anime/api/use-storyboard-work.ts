import { useCallback } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getWorkInfo, errorMessage, type WorkDetail } from '@kol/shared-sdk';
import { workKey } from '../../../hooks/work-queries';

/**
 * The query key of the storyboard's work: the remote's one work key (`workKey`), so a copy read or
 * saved here is the one the next page starts from. Invalidate it when the server changed the
 * work (the storyboard task wrote shots or pictures onto it).
 */
export const storyboardWorkKey = workKey;

/**
 * The storyboard's work (`work_info`), read on arrival and whenever the cache is told it changed
 * (`storyboardWorkKey`). Every copy read is handed to `onRead` as it arrives: the board takes it
 * unless it has edits of its own. A read made obsolete by a newer one is cancelled, so only the
 * newest copy arrives.
 */
export function useStoryboardWork(workId: number | null, onRead: (work: WorkDetail) => void) {
  const query = useQuery({
    queryKey: storyboardWorkKey(workId),
    queryFn: async ({ signal }) => {
      if (workId === null) throw new Error('no work');
      const work = await getWorkInfo({ workId }, { signal });
      onRead(work);
      return work;
    },
    enabled: workId !== null,
    // The storyboard task may have written the work since another page read it.
    staleTime: 0,
    refetchOnMount: 'always',
  });
  const { refetch } = query;

  /** Reads the work again; a failure shows as `loadError`. */
  const load = useCallback(async () => {
    if (workId !== null) await refetch();
  }, [workId, refetch]);

  /** Reads the work again for a choice the person made; throws when it cannot be read. */
  const reread = useCallback(async () => {
    if (workId !== null) await refetch({ throwOnError: true });
  }, [workId, refetch]);

  return {
    /** The work as last read or saved (its settings: the picture style a redraw uses). */
    work: query.data ?? null,
    loadError: query.error ? errorMessage(query.error) : null,
    load,
    reread,
  };
}
