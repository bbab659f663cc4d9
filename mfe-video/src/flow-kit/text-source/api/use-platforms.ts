import { useQuery } from '@tanstack/react-query';
import { getPlatforms, type BookPlatform } from '@kol/shared-sdk';
import { useListStatus } from '../../../hooks/use-list-status';

/** The query key of the book platforms: one list for every page that offers a book. */
export const PLATFORMS_KEY = ['platforms'] as const;

const NO_PLATFORMS: BookPlatform[] = [];

/** The book platforms (`get_platforms`); the built-in local library is always one. */
export function usePlatforms() {
  const query = useQuery({
    queryKey: PLATFORMS_KEY,
    queryFn: ({ signal }) => getPlatforms(undefined, { signal }),
  });
  const { error, reload } = useListStatus(query);
  return { platforms: query.data ?? NO_PLATFORMS, error, reload };
}
