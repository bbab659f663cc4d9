import { useCallback, useEffect, useState } from 'react';
import { useAtom } from 'jotai';
import { getUserLimitInfo, isApiError, errorMessage } from '@kol/shared-sdk';
import { usageLimitsAtom } from '@kol/shared-sdk/state';

/**
 * Fetches `get_user_limit_info` on mount and keeps the answer in the shared `usageLimitsAtom`,
 * so the shell's other pages see the counts this page saw. `error` is the SDK's message.
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
    void fetchLimits();
  }, [fetchLimits]);

  return { limits, loading, error, reload };
}
