import { useCallback } from 'react';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { getWorkInfo } from '@kol/shared-sdk';

/**
 * The query keys of the user's works in this remote:
 * - `['works', request]`: a list of works (`get_works` with that request);
 * - `['work', workId]`: a work as pages show it;
 * - `['work-base', workId]`: a work as a page read it on arrival, the base of its edits.
 */
export const WORKS_KEY = ['works'] as const;

/** The key of a work as pages show it (`workQuery`); null while a page has no work yet. */
export const workKey = (workId: number | null) => ['work', workId] as const;

/**
 * A work as the pages show it (`work_info`): saves and the server's pictures change it under the
 * page, so it is read again on each arrival (`staleTime: 0`), the copy known so far shown
 * meanwhile. Not the base of a save: see `workBaseQuery`.
 */
export function workQuery(workId: number) {
  return queryOptions({
    queryKey: workKey(workId),
    queryFn: ({ signal }) => getWorkInfo({ workId }, { signal }),
    staleTime: 0,
  });
}

/**
 * The work as a page read it on arrival (`work_info`): what the page's edits are based on, and
 * so the revision its next save names. Its own key, not `['work', id]`, and never fresh again
 * by itself (`staleTime: Infinity`, and an invalidation of `['work', id]` does not reach it): a
 * newer copy taken behind the page's back would become the base of the person's edit, and the
 * save would write over the other change unseen. Read again only when the page asks (a failed
 * read tried again, the newest work chosen over the person's edit). Dropped as soon as no page
 * shows it (`gcTime: 0`), so the next arrival reads the work again.
 */
export function workBaseQuery(workId: number) {
  return queryOptions({
    queryKey: ['work-base', workId] as const,
    queryFn: ({ signal }) => getWorkInfo({ workId }, { signal }),
    staleTime: Infinity,
    gcTime: 0,
  });
}

/**
 * After a work was made or saved: every page showing it and every list of works reads it again
 * (the bases of edits stay as they are).
 */
export function useWorkSaved() {
  const client = useQueryClient();
  return useCallback(
    (workId: number) => {
      void client.invalidateQueries({ queryKey: workQuery(workId).queryKey });
      void client.invalidateQueries({ queryKey: WORKS_KEY });
    },
    [client],
  );
}
