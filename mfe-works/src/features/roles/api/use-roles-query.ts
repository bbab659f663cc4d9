import { useCallback } from 'react';
import { useSearchParams } from '@kol/shared-sdk/router';
import { parseRoleType, type RoleType } from '../role-types';

export interface RolesQuery {
  /** The kind filter; null lists every kind. */
  type: RoleType | null;
  keyword: string;
  pageIndex: number;
}

/**
 * The filter, keyword and page live in the address (`?type=&keyword=&page=`), so a reload, a
 * shared link or the browser's back button shows the same list.
 */
export function useRolesQuery() {
  const [params, setParams] = useSearchParams();
  const query: RolesQuery = {
    type: parseRoleType(params.get('type')),
    keyword: params.get('keyword')?.trim() ?? '',
    pageIndex: Math.max(1, Number.parseInt(params.get('page') ?? '', 10) || 1),
  };

  /** Changes some of the query; any change but the page itself starts again at page 1. */
  const setQuery = useCallback(
    (change: Partial<RolesQuery>) => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        const put = (key: string, value: string | null) => {
          if (value) next.set(key, value);
          else next.delete(key);
        };
        if ('type' in change) put('type', change.type === null ? null : String(change.type));
        if ('keyword' in change) put('keyword', change.keyword?.trim() ?? null);
        const page = change.pageIndex ?? 1;
        put('page', page > 1 ? String(page) : null);
        return next;
      });
    },
    [setParams],
  );

  return { query, setQuery };
}
