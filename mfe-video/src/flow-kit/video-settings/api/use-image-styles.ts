import { useQuery } from '@tanstack/react-query';
import { getLoras, type Lora } from '@kol/shared-sdk';
import { useListStatus } from '../../../hooks/use-list-status';

/** The query key of the image styles: one list for every page that offers them. */
export const IMAGE_STYLES_KEY = ['image-styles'] as const;

const NO_STYLES: Lora[] = [];

/** The image styles (`get_loras`; their ids are what `imageStyleId` takes). */
export function useImageStyles() {
  const query = useQuery({
    queryKey: IMAGE_STYLES_KEY,
    queryFn: ({ signal }) => getLoras(undefined, { signal }),
  });
  return { styles: query.data ?? NO_STYLES, ...useListStatus(query) };
}
