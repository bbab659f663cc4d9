import { useCallback, useEffect, useState } from 'react';
import { useAtom } from 'jotai';
import { getUserLimitInfo, isApiError, errorMessage } from '@kol/shared-sdk';
import { usageLimitsAtom } from '@kol/shared-sdk/state';

/**
 * The user's counts, fetched again on mount (another tab or a finished task may have changed
 * them) into the shared `usageLimitsAtom`: the host's back-guard of the composition pages reads
 * the same atom, so it acts on what this page shows.
 */
export function useUsageLimits() {
  const [limits, setLimits] = useAtom(usageLimitsAtom);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const fetchLimits = useCallback(
    (signal?: AbortSignal) =>
      getUserLimitInfo(undefined, { signal }).then(
        (answer) => {
          setLimits(answer);
          setError(null);
          setLoading(false);
        },
        (reason: unknown) => {
          if (isApiError(reason) && reason.kind === 'aborted') return;
          setError(errorMessage(reason));
          setLoading(false);
        },
      ),
    [setLimits],
  );

  useEffect(() => {
    const controller = new AbortController();
    void fetchLimits(controller.signal);
    return () => controller.abort();
  }, [fetchLimits]);

  const reload = useCallback(() => {
    setLoading(true);
    return fetchLimits();
  }, [fetchLimits]);

  return { limits, loading, error, reload };
}
