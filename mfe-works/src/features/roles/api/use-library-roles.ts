import { useEffect, useState } from 'react';
import { getLibraryRoles, type Role, errorMessage } from '@kol/shared-sdk';
import type { RolesQuery } from './use-roles-query';

export const ROLES_PAGE_SIZE = 12;

interface Loaded {
  /** The query (and reload count) these items answer. */
  key: string;
  items: Role[];
  total: number;
  error: string | null;
}

/** One page of the caller's library roles (`/api/library/roles`), by kind and name. */
export function useLibraryRoles({ type, keyword, pageIndex }: RolesQuery) {
  const [version, setVersion] = useState(0);
  const [loaded, setLoaded] = useState<Loaded>({ key: '', items: [], total: 0, error: null });
  const key = JSON.stringify([type, keyword, pageIndex, version]);

  useEffect(() => {
    let live = true;
    getLibraryRoles({
      ...(type !== null ? { type } : {}),
      ...(keyword ? { keyword } : {}),
      pageIndex,
      pageSize: ROLES_PAGE_SIZE,
    })
      .then((page) => {
        if (live) setLoaded({ key, items: page.items, total: page.total, error: null });
      })
      .catch((failure: unknown) => {
        // The roles shown before stay, so a failed reload does not blank the page.
        if (live) setLoaded((before) => ({ ...before, key, error: errorMessage(failure) }));
      });
    return () => {
      live = false;
    };
    // key also changes on a reload (its count), which asks again for the same page.
  }, [key, type, keyword, pageIndex]);

  return {
    items: loaded.items,
    total: loaded.total,
    error: loaded.error,
    /** A fetch for the current query (or a reload) has not answered yet. */
    loading: loaded.key !== key,
    /** Fetches the same page again (after a change, or 重试). */
    reload: () => setVersion((count) => count + 1),
  };
}
