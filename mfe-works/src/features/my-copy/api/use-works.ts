import { useEffect, useState } from 'react';
import { getWorks, type WorkSummary, errorMessage } from '@kol/shared-sdk';

export const WORKS_PAGE_SIZE = 10;

interface WorksQuery {
  keyword: string;
  pageIndex: number;
}

/** One page of the user's texts, works of every type (`get_works` without a type, `withText`), by keyword. */
export function useWorks({ keyword, pageIndex }: WorksQuery) {
  const [items, setItems] = useState<WorkSummary[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    getWorks({
      // Texts only: a work without one has nothing to copy or reuse here.
      withText: true,
      pageIndex,
      pageSize: WORKS_PAGE_SIZE,
      ...(keyword ? { keyword } : {}),
    })
      .then((page) => {
        if (!live) return;
        setItems(page.items);
        setTotal(page.total);
        setError(null);
      })
      .catch((failure: unknown) => {
        if (live) setError(errorMessage(failure));
      })
      .finally(() => {
        if (live) setLoading(false);
      });
    return () => {
      live = false;
    };
  }, [keyword, pageIndex, version]);

  return {
    items,
    total,
    loading,
    error,
    /** Fetches the same page again (after an edit or a delete). */
    reload: () => {
      setLoading(true);
      setVersion((count) => count + 1);
    },
  };
}
