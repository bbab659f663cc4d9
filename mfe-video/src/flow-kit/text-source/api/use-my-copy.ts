import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getWorks, type WorkSummary } from '@kol/shared-sdk';
import { useListStatus } from '../../../hooks/use-list-status';
import { WORKS_KEY } from '../../../hooks/work-queries';

export const MY_COPY_PAGE_SIZE = 6;

const NO_WORKS: WorkSummary[] = [];

/**
 * The user's saved texts (`get_works` of every type), by keyword and page. Keyed `['works', …]`
 * with the call's own request, so the same page asked for elsewhere is the same entry, and
 * invalidating `['works']` (a work made, renamed or deleted) reaches every list of works. The
 * page shown stays while the next one is asked for.
 */
export function useMyCopy(keyword: string, pageIndex: number) {
  const request = {
    // Texts only: a work without one has nothing to copy or reuse here.
    withText: true,
    pageIndex,
    pageSize: MY_COPY_PAGE_SIZE,
    ...(keyword ? { keyword } : {}),
  };
  const query = useQuery({
    queryKey: [...WORKS_KEY, request],
    queryFn: ({ signal }) => getWorks(request, { signal }),
    placeholderData: keepPreviousData,
  });
  return {
    items: query.data?.items ?? NO_WORKS,
    total: query.data?.total ?? 0,
    ...useListStatus(query),
  };
}
