import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { getLibraryRoles, errorMessage } from '@kol/shared-sdk';
import type { RolesQuery } from './use-roles-query';

export const ROLES_PAGE_SIZE = 12;

/** The query key of every page of the role library: a change to a role invalidates it. */
export const LIBRARY_ROLES_KEY = ['library-roles'] as const;

/** One page of the caller's library roles (`/api/library/roles`), by kind and name. */
export function useLibraryRoles({ type, keyword, pageIndex }: RolesQuery) {
  const client = useQueryClient();
  const input = {
    ...(type !== null ? { type } : {}),
    ...(keyword ? { keyword } : {}),
    pageIndex,
    pageSize: ROLES_PAGE_SIZE,
  };
  const query = useQuery({
    queryKey: [...LIBRARY_ROLES_KEY, input],
    queryFn: ({ signal }) => getLibraryRoles(input, { signal }),
    // The roles shown stay while another page, kind or name is asked for (a spinner over them).
    placeholderData: keepPreviousData,
  });

  return {
    items: query.data?.items ?? [],
    total: query.data?.total ?? 0,
    error: query.error ? errorMessage(query.error) : null,
    /** A fetch for the current query (or a reload) has not answered yet. */
    loading: query.isFetching,
    /** Fetches the roles again (after a change, or 重试). */
    reload: () => void client.invalidateQueries({ queryKey: LIBRARY_ROLES_KEY }),
  };
}
