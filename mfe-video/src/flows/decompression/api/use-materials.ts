import { useQuery } from '@tanstack/react-query';
import {
  getCutVideoTagList,
  getFirstLevelList,
  getSecondLevelList,
  type MaterialCategory,
  type MaterialTag,
} from '@kol/shared-sdk';
import { useBackgroundList, useReloadBackgrounds } from '../../../hooks/use-backgrounds';
import { useListStatus } from '../../../hooks/use-list-status';

/** The library's tree the backgrounds live in: 视频素材 (type 0) → 背景 → its categories. */
const VIDEO_MATERIALS_TYPE = 0;
const BACKGROUND_NODE = '背景';

/** The query keys of the library's tags and of the background categories. */
export const MATERIAL_TAGS_KEY = ['material-tags'] as const;
export const BACKGROUND_CATEGORIES_KEY = ['background-categories'] as const;

/** The background categories (`get_first_level_list`, then `get_second_level_list` of 背景). */
async function backgroundCategories(signal: AbortSignal): Promise<MaterialCategory[]> {
  const first = await getFirstLevelList({ type: VIDEO_MATERIALS_TYPE }, { signal });
  const node = first.find((category) => category.name === BACKGROUND_NODE);
  return node ? getSecondLevelList({ parentId: node.id }, { signal }) : [];
}

const NO_CATEGORIES: MaterialCategory[] = [];
const NO_TAGS: MaterialTag[] = [];

/**
 * The material library: its categories (the background tree's second level), its tags
 * (`get_cut_video_tag_list`, 我的上传 among them) and the materials of the chosen category and
 * tag (`get_system_material_list`, the shared list of backgrounds); null lists them all.
 * `reload` reads every list of backgrounds again: after an upload, the scrolling video's
 * picker shows the new loop too.
 */
export function useMaterials(tagId: number | null, categoryId: number | null = null) {
  // Without its tags or categories the library is still browsable: their failure is not shown.
  const tags = useQuery({
    queryKey: MATERIAL_TAGS_KEY,
    queryFn: ({ signal }) => getCutVideoTagList(undefined, { signal }),
  });
  const categories = useQuery({
    queryKey: BACKGROUND_CATEGORIES_KEY,
    queryFn: ({ signal }) => backgroundCategories(signal),
  });
  const materials = useBackgroundList({ tagId, categoryId });
  const { error } = useListStatus(materials);
  const reload = useReloadBackgrounds();
  return {
    categories: categories.data ?? NO_CATEGORIES,
    tags: tags.data ?? NO_TAGS,
    materials: materials.data ?? null,
    error: error ? `素材加载失败：${error}` : null,
    reload: () => void reload(),
  };
}
