import { useCallback, useEffect, useState } from 'react';
import { getWorks, isApiError, type WorkSummary, errorMessage } from '@kol/shared-sdk';
import type { WorksQuery } from '../hooks/use-works-query';

export const WORKS_PAGE_SIZE = 12;
/** How often the shown page is fetched again while one of its works is being made. */
export const WORKS_POLL_MS = 2000;

/** A work whose newest task is still being made (a work never generated has no task). */
export function isMaking(work: WorkSummary): boolean {
  return work.taskId !== null && (work.state === 'queued' || work.state === 'running');
}

interface Loaded {
  /** The query the answer belongs to, so a tab or page switch never shows the last one's cards. */
  key: string;
  items: WorkSummary[];
  total: number;
  error: string | null;
}

const keyOf = ({ type, flag, keyword, pageIndex }: WorksQuery) =>
  JSON.stringify([type, flag, keyword, pageIndex]);

/**
 * One page of one type's works (`get_works`). While a shown work is being made the same page is
 * fetched again every `pollMs`, so its stage and percent move: one call a tick for the whole page,
 * rather than a progress stream per card. Polling stops once nothing shown is being made, when the
 * query changes and on unmount.
 */
export function useTypeWorks(query: WorksQuery, pollMs = WORKS_POLL_MS) {
  const { type, flag, keyword, pageIndex } = query;
  const key = keyOf(query);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    const answerKey = keyOf({ type, flag, keyword, pageIndex });
    let timer: ReturnType<typeof setTimeout> | undefined;
    // What the last answer showed: a failed tick keeps polling while the kept cards are running.
    let making = false;

    const load = () => {
      getWorks(
        { type, flag, pageIndex, pageSize: WORKS_PAGE_SIZE, ...(keyword ? { keyword } : {}) },
        { signal: controller.signal },
      )
        .then(
          (page) => {
            making = page.items.some(isMaking);
            setLoaded({ key: answerKey, items: page.items, total: page.total, error: null });
          },
          (failure: unknown) => {
            if (isApiError(failure) && failure.kind === 'aborted') return;
            // The cards already shown stay: a failed refresh must not empty the page.
            setLoaded((previous) => ({
              key: answerKey,
              items: previous?.key === answerKey ? previous.items : [],
              total: previous?.key === answerKey ? previous.total : 0,
              error: errorMessage(failure),
            }));
          },
        )
        .finally(() => {
          if (controller.signal.aborted) return;
          setRefreshing(false);
          if (making) timer = setTimeout(load, pollMs);
        });
    };

    load();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [type, flag, keyword, pageIndex, version, pollMs]);

  const current = loaded?.key === key ? loaded : null;

  return {
    items: current?.items ?? [],
    total: current?.total ?? 0,
    error: current?.error ?? null,
    /** Nothing of this query is known yet (first load, or a tab, page or type switch). */
    loading: current === null,
    /** A fetch after an action is under way; the cards shown stay. */
    refreshing,
    /** Fetches the same page again (after an action, or 重试 after a failure). */
    reload: useCallback(() => {
      setRefreshing(true);
      setVersion((count) => count + 1);
    }, []),
  };
}
