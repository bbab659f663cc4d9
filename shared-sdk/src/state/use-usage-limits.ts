import { useQuery } from '@tanstack/react-query';
import { useAtom } from 'jotai';
// From the package, not a relative path: this entry is its own shared module, and the client is
// the main entry's singleton (with its session handling); a relative import would bundle a second.
import { errorMessage, getUserLimitInfo } from '@kol/shared-sdk';
import { usageLimitsAtom } from './atoms';

/** The query key of the user's counts: invalidate it when something spent or gave back counts. */
export const USAGE_LIMITS_KEY = ['usage-limits'] as const;

/**
 * The user's counts (`get_user_limit_info`), fetched again on mount (another tab or a finished
 * task may have changed them) into the shared `usageLimitsAtom`: the host's back-guard of the
 * composition pages and every remote read the same atom, so each acts on what the page shows.
 * `error` is the SDK's message; `reload` fetches again.
 */
export function useUsageLimits() {
  const [limits, setLimits] = useAtom(usageLimitsAtom);
  const query = useQuery({
    queryKey: USAGE_LIMITS_KEY,
    queryFn: async ({ signal }) => {
      const answer = await getUserLimitInfo(undefined, { signal });
      // Into the atom as the answer comes: what the host's guard reads.
      setLimits(answer);
      return answer;
    },
    staleTime: 0,
    refetchOnMount: 'always',
  });
  return {
    limits,
    loading: query.isFetching,
    error: query.error ? errorMessage(query.error) : null,
    reload: () => query.refetch(),
  };
}
