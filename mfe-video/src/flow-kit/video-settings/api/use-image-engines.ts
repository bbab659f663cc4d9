import { useQuery } from '@tanstack/react-query';
import { getVersionList, type ModelVersion } from '@kol/shared-sdk';
import { useListStatus } from '../../../hooks/use-list-status';

/** The query key of the installation's image engines: one list for every page. */
export const IMAGE_ENGINES_KEY = ['image-engines'] as const;

const NO_ENGINES: ModelVersion[] = [];

/**
 * The generation models of this installation (`version_list`): the engine that draws the
 * pictures first, then the ones standing in when it fails. The server draws with them in this
 * order; a work cannot choose one, so pages only show them.
 */
export function useImageEngines() {
  const query = useQuery({
    queryKey: IMAGE_ENGINES_KEY,
    queryFn: ({ signal }) => getVersionList(undefined, { signal }),
    staleTime: Infinity,
  });
  return { engines: query.data ?? NO_ENGINES, ...useListStatus(query) };
}
