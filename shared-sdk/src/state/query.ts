import { QueryClient } from '@tanstack/react-query';
// From the package, not a relative path: see use-usage-limits.ts.
import { isApiError } from '@kol/shared-sdk';

/**
 * How every front end loads data: TanStack Query, one client for the host and every remote.
 * A refusal of the server (`business`, `unauthorized`) is an answer and asking again gives the
 * same one, so only a transport failure is retried, twice. Nothing is fetched again because the
 * window got the focus back: a page that must be fresh says so (`staleTime`, `refetchOnMount`).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) =>
          failures < 2 &&
          isApiError(error) &&
          (error.kind === 'network' || error.kind === 'timeout'),
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * The one client of the host and every remote: this entry is a shared singleton, so a list
 * loaded by one remote (voices, styles) is in the cache when another asks for it, and an
 * invalidation by one (a finished task's counts) reaches them all.
 */
export const queryClient = createQueryClient();
