import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { getSystemMaterialList } from '@kol/shared-sdk';

/** Every built-in loop fits one page; the user's uploads are listed up to this many. */
const PAGE_SIZE = 100;

/**
 * The query key of every list of background loops: `['backgrounds']` is all of them, a tag or
 * category of the library adds `{ tagId, categoryId }`. Invalidating `['backgrounds']` (an
 * upload) reaches them all.
 */
export const BACKGROUNDS_KEY = ['backgrounds'] as const;

/** A part of the material library: null is any. */
export interface BackgroundFilter {
  tagId: number | null;
  categoryId: number | null;
}

const EVERY_BACKGROUND: BackgroundFilter = { tagId: null, categoryId: null };

/**
 * The background loops the server renders over (`get_system_material_list`): its built-in loops
 * and the user's own uploaded clips, each with the id `backgroundMaterialId` takes; all of them,
 * or those of a tag and category. One query per filter for every page that lists them (the
 * scrolling video's picker, the decompression library, the segment editor), so a page showing
 * two pickers loads the list once. The list shown stays while another filter is asked for.
 */
export function useBackgroundList(filter: BackgroundFilter = EVERY_BACKGROUND) {
  const { tagId, categoryId } = filter;
  const every = tagId === null && categoryId === null;
  return useQuery({
    queryKey: every ? BACKGROUNDS_KEY : [...BACKGROUNDS_KEY, { tagId, categoryId }],
    queryFn: async ({ signal }) => {
      const page = await getSystemMaterialList(
        {
          ...(tagId !== null ? { tagId } : {}),
          ...(categoryId !== null ? { categoryId } : {}),
          pageIndex: 1,
          pageSize: PAGE_SIZE,
        },
        { signal },
      );
      return page.items;
    },
    placeholderData: keepPreviousData,
  });
}

/** Reads every list of backgrounds again (after an upload added one). */
export function useReloadBackgrounds() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: BACKGROUNDS_KEY });
}
