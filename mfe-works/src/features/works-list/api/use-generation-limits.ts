import { useCallback, useEffect } from 'react';
import { useAtom } from 'jotai';
import { getUserLimitInfo, type UsageLimits } from '@kol/shared-sdk';
import { usageLimitsAtom } from '@kol/shared-sdk/state';

/**
 * The user's remaining counts (`get_user_limit_info`), kept in the shared `usageLimitsAtom` so the
 * shell's other pages see what this page saw. Fetched on mount, so 重新生成 can be disabled when no
 * count is left; `refresh` fetches them again right before a confirmation states them.
 */
export function useGenerationLimits() {
  const [limits, setLimits] = useAtom(usageLimitsAtom);

  const refresh = useCallback(
    async (signal?: AbortSignal): Promise<UsageLimits> => {
      const answer = await getUserLimitInfo(undefined, { signal });
      setLimits(answer);
      return answer;
    },
    [setLimits],
  );

  useEffect(() => {
    const controller = new AbortController();
    // A failure leaves the counts unknown: 重新生成 stays enabled and asks again when clicked.
    refresh(controller.signal).catch(() => undefined);
    return () => controller.abort();
  }, [refresh]);

  return { limits, refresh };
}
