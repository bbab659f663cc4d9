import { useCallback, useEffect, useState } from 'react';
import {
  getCutVideoTagList,
  getFirstLevelList,
  getSecondLevelList,
  getSystemMaterialList,
  type Material,
  type MaterialCategory,
  type MaterialTag,
  errorMessage,
} from '@kol/shared-sdk';

/** Every built-in loop fits one page; the user's uploads are listed up to this many. */
const PAGE_SIZE = 100;

/** The library's tree the backgrounds live in: 视频素材 (type 0) → 背景 → its categories. */
const VIDEO_MATERIALS_TYPE = 0;
const BACKGROUND_NODE = '背景';

/** The background categories (`get_first_level_list`, then `get_second_level_list` of 背景). */
async function backgroundCategories(): Promise<MaterialCategory[]> {
  const first = await getFirstLevelList({ type: VIDEO_MATERIALS_TYPE });
  const node = first.find((category) => category.name === BACKGROUND_NODE);
  return node ? getSecondLevelList({ parentId: node.id }) : [];
}

/**
 * The material library: its categories (the background tree's second level), its tags
 * (`get_cut_video_tag_list`, 我的上传 among them) and the materials of the chosen category and
 * tag (`get_system_material_list`); null lists them all.
 */
export function useMaterials(tagId: number | null, categoryId: number | null = null) {
  const [categories, setCategories] = useState<MaterialCategory[]>([]);
  const [tags, setTags] = useState<MaterialTag[]>([]);
  const [materials, setMaterials] = useState<Material[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    getCutVideoTagList(undefined).then(
      (list) => live && setTags(list),
      () => undefined,
    );
    // Without its categories the library is still browsable by tag.
    backgroundCategories().then(
      (list) => live && setCategories(list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    let live = true;
    getSystemMaterialList({
      ...(tagId !== null ? { tagId } : {}),
      ...(categoryId !== null ? { categoryId } : {}),
      pageIndex: 1,
      pageSize: PAGE_SIZE,
    }).then(
      (page) => {
        if (!live) return;
        setMaterials(page.items);
        setError(null);
      },
      (reason) => live && setError(`素材加载失败：${errorMessage(reason)}`),
    );
    return () => {
      live = false;
    };
  }, [tagId, categoryId, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { categories, tags, materials, error, reload };
}
