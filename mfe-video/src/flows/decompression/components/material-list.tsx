import { Alert, Button, Empty, Flex, Radio, Skeleton } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { AssetSource, mediaUrl, type Material } from '@kol/shared-sdk';
import { ConfirmButton } from '../../../components/confirm-button';
import { UPLOAD_TAG_ID } from '../api/use-background-upload';

interface MaterialListProps {
  /** The materials of the filters; null while they are read. */
  materials: Material[] | null;
  error: string | null;
  reload: () => void;
  tagId: number | null;
  categoryId: number | null;
  /** The chosen material; undefined: the server's default loop. */
  value: number | undefined;
  onPick: (materialId: number) => void;
  /** Deletes one of the creator's uploads (asked first); rejects when it failed. */
  onDelete: (material: Material) => Promise<unknown>;
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

/** The library's loops under the filters, each with its preview; or why there are none. */
export function MaterialList({
  materials,
  error,
  reload,
  tagId,
  categoryId,
  value,
  onPick,
  onDelete,
}: MaterialListProps) {
  return (
    <>
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
          onChange={(event) => onPick(Number(event.target.value))}
        >
          <Flex wrap gap={12}>
            {materials.map((material) => (
              <Flex key={material.materialId} vertical align="center" gap={4}>
                <Radio value={material.materialId}>
                  <Flex vertical align="center" gap={4}>
                    <MaterialPreview material={material} />
                    <span>{material.name}</span>
                  </Flex>
                </Radio>
                {/* Outside the radio's label: deleting never picks it. Built-ins stay. */}
                {material.source === AssetSource.local && (
                  <ConfirmButton
                    size="small"
                    type="link"
                    danger
                    icon={<DeleteOutlined aria-hidden />}
                    aria-label={`删除「${material.name}」`}
                    confirmTitle={`删除「${material.name}」？`}
                    confirmContent="删除后无法恢复，它将从我的上传中消失；用它做背景的作品重新生成前需要换一个背景。"
                    okText="删除"
                    okDanger
                    onConfirm={async () => {
                      await onDelete(material);
                    }}
                  >
                    删除
                  </ConfirmButton>
                )}
              </Flex>
            ))}
          </Flex>
        </Radio.Group>
      )}
    </>
  );
}
