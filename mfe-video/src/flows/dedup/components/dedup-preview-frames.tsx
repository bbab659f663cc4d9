import { Alert, Flex, Spin, Typography } from 'antd';
import { mediaUrl, type DedupPreview } from '@kol/shared-sdk';

interface DedupPreviewFramesProps {
  preview: DedupPreview | null;
  loading: boolean;
  error: string | null;
  aspect: '9:16' | '16:9';
}

/** 去重前 / 去重后: one frame of the clip side by side, as the render will show it. */
export function DedupPreviewFrames({ preview, loading, error, aspect }: DedupPreviewFramesProps) {
  const size = aspect === '9:16' ? { width: 180, height: 320 } : { width: 320, height: 180 };
  const frame = (label: string, url: string | undefined) => (
    <Flex vertical gap={4} align="center">
      {url ? (
        <img
          src={mediaUrl(url)}
          alt={label}
          style={{ ...size, objectFit: 'cover', borderRadius: 6, background: '#000' }}
        />
      ) : (
        <div style={{ ...size, borderRadius: 6, background: 'rgba(0,0,0,0.06)' }} />
      )}
      <Typography.Text type="secondary">{label}</Typography.Text>
    </Flex>
  );
  return (
    <Flex vertical gap={8}>
      <Spin spinning={loading} description="正在生成预览…">
        <Flex gap={16} wrap aria-label="去重预览" role="group">
          {frame('去重前', preview?.beforeUrl)}
          {frame('去重后', preview?.afterUrl)}
        </Flex>
      </Spin>
      {preview && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          第 {(preview.atMs / 1000).toFixed(1)}{' '}
          秒的画面（去掉片头后的第一帧）；变速和帧率只影响播放，单帧看不出。
        </Typography.Text>
      )}
      {error && <Alert type="error" showIcon title={error} />}
    </Flex>
  );
}
