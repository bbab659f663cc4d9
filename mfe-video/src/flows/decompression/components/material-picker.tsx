import { useState } from 'react';
import { Flex, Typography } from 'antd';
import { UPLOAD_TAG_ID, useBackgroundUpload } from '../api/use-background-upload';
import { useDeleteUpload } from '../api/use-delete-upload';
import { useMaterials } from '../api/use-materials';
import { BackgroundUpload } from './background-upload';
import { MaterialFilters } from './material-filters';
import { MaterialList } from './material-list';

interface MaterialPickerProps {
  /** The chosen material; undefined: the server's default loop. */
  value: number | undefined;
  /** A material chosen; undefined: the chosen upload was deleted, the default loop is used. */
  onChange: (materialId: number | undefined) => void;
  /** True while an upload runs, so the page does not render without it. */
  onBusyChange?: (busy: boolean) => void;
}

/**
 * The looping background: the material library by category (`get_first_level_list` and
 * `get_second_level_list` of 视频素材 → 背景) and by tag (`get_cut_video_tag_list`), listed with
 * `get_system_material_list`, each with its moving preview, or the creator's own video
 * (`upload_media`, checked first, with its progress). A refused upload says why and keeps the
 * background chosen before. An upload can be deleted from the list (`/api/edit/delete`, asked
 * first).
 */
export function MaterialPicker({ value, onChange, onBusyChange }: MaterialPickerProps) {
  const [tagId, setTagId] = useState<number | null>(null);
  const [categoryId, setCategoryId] = useState<number | null>(null);
  const { categories, tags, materials, error, reload } = useMaterials(tagId, categoryId);
  const upload = useBackgroundUpload({
    onChange,
    onBusyChange,
    onUploaded: () => {
      // Uploads belong to no category: show them under 我的上传.
      setCategoryId(null);
      setTagId(UPLOAD_TAG_ID);
      reload();
    },
  });

  const { remove } = useDeleteUpload((material) => {
    // The deleted upload was the background: back to the default, which always exists.
    if (material.materialId === value) onChange(undefined);
  });

  const shown =
    materials?.find((m) => m.materialId === value) ??
    (upload.picked?.materialId === value ? upload.picked : null);

  return (
    <Flex vertical gap={12}>
      <MaterialFilters
        categories={categories}
        tags={tags}
        categoryId={categoryId}
        tagId={tagId}
        onCategoryChange={setCategoryId}
        onTagChange={setTagId}
      />
      <MaterialList
        materials={materials}
        error={error}
        reload={reload}
        tagId={tagId}
        categoryId={categoryId}
        value={value}
        onPick={(materialId) => {
          upload.settle();
          onChange(materialId);
        }}
        onDelete={remove}
      />
      <Typography.Text data-testid="chosen-background">
        {shown
          ? `已选背景：${shown.name}（${Math.round(shown.durationMs / 1000)} 秒，循环播放）`
          : value !== undefined
            ? '已选背景：我的上传'
            : '未选择时使用素材库的第一个背景'}
      </Typography.Text>
      <BackgroundUpload upload={upload} />
    </Flex>
  );
}
