import { useEffect, useState } from 'react';
import { getWorks, type WorkSummary, errorMessage } from '@kol/shared-sdk';

export const MY_COPY_PAGE_SIZE = 6;

/** The user's saved texts (`get_works` of every type), by keyword and page. */
export function useMyCopy(keyword: string, pageIndex: number) {
  const [items, setItems] = useState<WorkSummary[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    getWorks({
      // Texts only: a work without one has nothing to copy or reuse here.
      withText: true,
      pageIndex,
      pageSize: MY_COPY_PAGE_SIZE,
      ...(keyword ? { keyword } : {}),
    }).then(
      (answer) => {
        if (!live) return;
        setItems(answer.items);
        setTotal(answer.total);
        setError(null);
        setLoading(false);
      },
      (reason: unknown) => {
        if (!live) return;
        setError(errorMessage(reason));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [keyword, pageIndex, attempt]);

  const reload = () => {
    setLoading(true);
    setAttempt((n) => n + 1);
  };

  return { items, total, loading, error, reload };
}
