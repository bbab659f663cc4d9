import { Alert, Button, Flex, Radio, Spin, Typography } from 'antd';
import { mediaUrl, type Material } from '@kol/shared-sdk';

interface BackgroundPickerProps {
  materials: Material[];
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  /** undefined: the server's default loop (the list's first). */
  value: number | undefined;
  onChange: (materialId: number) => void;
}

/** 背景: one of the server's loops (or the user's uploaded clips), shown by its cover. */
export function BackgroundPicker({
  materials,
  loading,
  error,
  onRetry,
  value,
  onChange,
}: BackgroundPickerProps) {
  if (loading) return <Spin aria-label="正在加载背景" />;
  if (error)
    return (
      <Alert
        type="error"
        showIcon
        title={`背景列表加载失败：${error}`}
        action={
          <Button size="small" onClick={onRetry}>
            重试
          </Button>
        }
      />
    );
  if (materials.length === 0)
    return <Typography.Text type="secondary">暂无可用背景，将使用默认背景</Typography.Text>;
  return (
    <Radio.Group
      aria-label="背景"
      value={value ?? materials[0]?.materialId}
      onChange={(event) => onChange(Number(event.target.value))}
    >
      <Flex wrap gap={8}>
        {materials.map((material) => (
          <Radio key={material.materialId} value={material.materialId} aria-label={material.name}>
            <Flex vertical align="center" gap={4}>
              {material.coverUrl ? (
                <img
                  src={mediaUrl(material.coverUrl)}
                  alt=""
                  style={{ width: 54, height: 96, objectFit: 'cover', borderRadius: 4 }}
                />
              ) : null}
              <Typography.Text>{material.name}</Typography.Text>
            </Flex>
          </Radio>
        ))}
      </Flex>
    </Radio.Group>
  );
}
