import { useRef, useState } from 'react';
import { Alert, App, Button, Empty, Flex, Progress, Radio, Skeleton, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { isApiError, mediaUrl, type Material, errorMessage } from '@kol/shared-sdk';
import { useSingleFlight } from '@kol/shared-sdk/ui';
import { uploadBackground } from '../api/upload-background';
import { useMaterials } from '../api/use-materials';
import {
  BACKGROUND_FILE_ACCEPT,
  BACKGROUND_FILE_LIMITS,
  backgroundFileProblem,
  probeVideoDurationMs,
} from '../background-file';

/** The tag the server lists the user's own uploaded videos under. */
const UPLOAD_TAG_ID = 100;
const ALL = 'all';

interface MaterialPickerProps {
  /** The chosen material; undefined: the server's default loop. */
  value: number | undefined;
  onChange: (materialId: number) => void;
  /** True while an upload runs, so the page does not render without it. */
  onBusyChange?: (busy: boolean) => void;
}

function uploadFailure(reason: unknown): string {
  if (isApiError(reason)) return errorMessage(reason);
  return reason instanceof Error && reason.message ? reason.message : errorMessage(reason);
}

/** A material's moving preview: the loop itself, muted, over its cover until it plays. */
function MaterialPreview({ material }: { material: Material }) {
  return (
    <video
      aria-hidden
      src={mediaUrl(material.videoUrl)}
      poster={material.coverUrl ? mediaUrl(material.coverUrl) : undefined}
      muted
      loop
      autoPlay
      playsInline
      preload="metadata"
      style={{ width: 72, height: 128, objectFit: 'cover', borderRadius: 6, background: '#111' }}
    />
  );
}

/**
 * The looping background: the material library by category (`get_first_level_list` and
 * `get_second_level_list` of 视频素材 → 背景) and by tag (`get_cut_video_tag_list`), listed with
 * `get_system_material_list`, each with its moving preview, or the creator's own video
 * (`upload_media`, checked first, with its progress). A refused upload says why and keeps the
 * background chosen before.
 */
export function MaterialPicker({ value, onChange, onBusyChange }: MaterialPickerProps) {
  const { message } = App.useApp();
  const [tagId, setTagId] = useState<number | null>(null);
  const [categoryId, setCategoryId] = useState<number | null>(null);
  const { categories, tags, materials, error, reload } = useMaterials(tagId, categoryId);
  const input = useRef<HTMLInputElement>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [picked, setPicked] = useState<Material | null>(null);

  const shown = materials?.find((m) => m.materialId === value) ?? picked;

  // One file at a time: a second pick while one is checked or sent waits its turn (ignored).
  const { run: choose, busy: choosing } = useSingleFlight(async (file: File | undefined) => {
    if (!file) return;
    let found = backgroundFileProblem(file);
    if (!found) found = backgroundFileProblem(file, await probeVideoDurationMs(file));
    setProblem(found);
    if (found) {
      void message.error(found);
      return;
    }
    setPercent(0);
    onBusyChange?.(true);
    try {
      const uploaded = await uploadBackground(file, setPercent);
      onChange(uploaded.assetId);
      setPicked({
        materialId: uploaded.assetId,
        name: uploaded.name,
        coverUrl: '',
        videoUrl: uploaded.url,
        durationMs: uploaded.durationMs,
        source: 1,
        tagIds: [UPLOAD_TAG_ID],
      });
      // Uploads belong to no category: show them under 我的上传.
      setCategoryId(null);
      setTagId(UPLOAD_TAG_ID);
      reload();
      void message.success(`「${file.name}」已上传并设为背景`);
    } catch (reason) {
      const text = `背景视频上传失败：${uploadFailure(reason)}`;
      setProblem(text);
      void message.error(text);
    } finally {
      setPercent(null);
      onBusyChange?.(false);
      if (input.current) input.current.value = '';
    }
  });

  return (
    <Flex vertical gap={12}>
      {categories.length > 0 && (
        <Radio.Group
          aria-label="画面类别"
          optionType="button"
          size="small"
          value={categoryId === null ? ALL : categoryId}
          onChange={(event) =>
            setCategoryId(event.target.value === ALL ? null : Number(event.target.value))
          }
          options={[
            { value: ALL, label: '全部类别' },
            ...categories.map((category) => ({ value: category.id, label: category.name })),
          ]}
        />
      )}
      <Radio.Group
        aria-label="素材分类"
        optionType="button"
        size="small"
        value={tagId === null ? ALL : tagId}
        onChange={(event) =>
          setTagId(event.target.value === ALL ? null : Number(event.target.value))
        }
        options={[
          { value: ALL, label: '全部' },
          ...tags.map((tag) => ({ value: tag.tagId, label: tag.name })),
        ]}
      />
      {error && (
        <Alert
          type="error"
          showIcon
          title={error}
          action={
            <Button size="small" onClick={reload}>
              重试
            </Button>
          }
        />
      )}
      {!materials && !error && <Skeleton active paragraph={{ rows: 2 }} />}
      {materials && materials.length === 0 && (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            tagId === UPLOAD_TAG_ID && categoryId === null
              ? '还没有上传过视频'
              : categoryId !== null && tagId === UPLOAD_TAG_ID
                ? '上传的视频不属于任何类别：选「全部类别」查看'
                : '这个分类还没有素材'
          }
        />
      )}
      {materials && materials.length > 0 && (
        <Radio.Group
          aria-label="背景素材"
          value={value}
          onChange={(event) => {
            // A loop chosen from the library settles an earlier refused upload.
            setProblem(null);
            onChange(Number(event.target.value));
          }}
        >
          <Flex wrap gap={12}>
            {materials.map((material) => (
              <Radio key={material.materialId} value={material.materialId}>
                <Flex vertical align="center" gap={4}>
                  <MaterialPreview material={material} />
                  <span>{material.name}</span>
                </Flex>
              </Radio>
            ))}
          </Flex>
        </Radio.Group>
      )}
      <Typography.Text data-testid="chosen-background">
        {shown
          ? `已选背景：${shown.name}（${Math.round(shown.durationMs / 1000)} 秒，循环播放）`
          : value !== undefined
            ? '已选背景：我的上传'
            : '未选择时使用素材库的第一个背景'}
      </Typography.Text>
      <Flex vertical gap={6}>
        <input
          ref={input}
          type="file"
          hidden
          aria-label="选择背景视频"
          accept={BACKGROUND_FILE_ACCEPT}
          onChange={(event) => void choose(event.target.files?.[0])}
        />
        <Button
          icon={<UploadOutlined />}
          loading={percent !== null || choosing}
          onClick={() => input.current?.click()}
        >
          上传背景视频
        </Button>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {BACKGROUND_FILE_LIMITS}
        </Typography.Text>
        {percent !== null && (
          <Progress aria-label="背景视频的上传进度" percent={Math.round(percent)} size="small" />
        )}
        {problem && <Alert type="error" showIcon title={problem} />}
      </Flex>
    </Flex>
  );
}
