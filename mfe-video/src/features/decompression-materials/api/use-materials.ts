import { useCallback, useEffect, useState } from 'react';
import {
  getCutVideoTagList,
  getSystemMaterialList,
  type Material,
  type MaterialTag,
} from '@kol/shared-sdk';
import { errorMessage } from '../../../lib/error-message';

/** Every built-in loop fits one page; the user's uploads are listed up to this many. */
const PAGE_SIZE = 100;

/**
 * The material library: its categories (`get_cut_video_tag_list`, 我的上传 among them) and the
 * materials of the chosen one (`get_system_material_list`); `tagId` null lists them all.
 */
export function useMaterials(tagId: number | null) {
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
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    let live = true;
    getSystemMaterialList({
      ...(tagId !== null ? { tagId } : {}),
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
  }, [tagId, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { tags, materials, error, reload };
}
