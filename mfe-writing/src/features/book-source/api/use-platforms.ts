import { useQuery } from '@tanstack/react-query';
import { getPlatforms, type BookPlatform, errorMessage } from '@kol/shared-sdk';

/** The query key of the book platforms: the video remote's text source reads them under it too. */
export const PLATFORMS_KEY = ['platforms'] as const;

/** One empty list, the same on every render until the platforms are in. */
const NO_PLATFORMS: BookPlatform[] = [];

/** The book platforms (`get_platforms`), fetched once; `reload` asks again after a failure. */
export function usePlatforms() {
  const query = useQuery({
    queryKey: PLATFORMS_KEY,
    queryFn: ({ signal }) => getPlatforms(undefined, { signal }),
  });
  return {
    platforms: query.data ?? NO_PLATFORMS,
    error: query.error ? errorMessage(query.error) : null,
    reload: () => void query.refetch(),
  };
}
