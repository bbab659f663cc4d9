import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { getWorks, errorMessage } from '@kol/shared-sdk';
import { WORKS_KEY, worksKey, type WorksInput } from '../../../lib/query-keys';

export const WORKS_PAGE_SIZE = 10;

interface WorksQuery {
  keyword: string;
  pageIndex: number;
}

/** One page of the user's texts, works of every type (`get_works` without a type, `withText`), by keyword. */
export function useWorks({ keyword, pageIndex }: WorksQuery) {
  const client = useQueryClient();
  const input: WorksInput = {
    // Texts only: a work without one has nothing to copy or reuse here.
    withText: true,
    pageIndex,
    pageSize: WORKS_PAGE_SIZE,
    ...(keyword ? { keyword } : {}),
  };
  const query = useQuery({
    queryKey: worksKey(input),
    queryFn: ({ signal }) => getWorks(input, { signal }),
    // Another page or keyword: the rows shown stay until its answer is in.
    placeholderData: keepPreviousData,
  });

  return {
    items: query.data?.items ?? [],
    total: query.data?.total ?? 0,
    loading: query.isFetching,
    error: query.error ? errorMessage(query.error) : null,
    /**
     * Fetches the page again (重试, or after an edit or a delete); the works changed, so every
     * other list of them is fetched again when next shown.
     */
    reload: () => void client.invalidateQueries({ queryKey: WORKS_KEY }),
  };
}
