import { memo } from 'react';
import { Alert, Empty, Flex, Progress, Typography } from 'antd';
import { formatDurationMs, mediaUrl, stageName, type WorkResult } from '@kol/shared-sdk';
import { failureText } from '../api/use-video-progress';

interface VideoSectionProps {
  result: WorkResult | null;
  resultError: string | null;
  /** The newest video made (kept while a new one is merged). */
  video: { url: string; taskId: string | null } | null;
  running: boolean;
  polling: string | null;
  madeHere: boolean;
}

/** The work's current video, and the progress or the failure of its newest task. */
export const VideoSection = memo(function VideoSection({
  result,
  resultError,
  video,
  running,
  polling,
  madeHere,
}: VideoSectionProps) {
  return (
    <Flex vertical gap={8} align="center">
      {video ? (
        <video
          // A new video replaces the element, so the player loads it from the start.
          key={`${video.taskId ?? ''}-${video.url}`}
          controls
          aria-label="视频播放器"
          src={mediaUrl(video.url)}
          style={{ width: '100%', maxWidth: 360, maxHeight: 480, background: '#000' }}
        />
      ) : (
        <Empty description="还没有合成好的视频" />
      )}
      {madeHere && !running && (
        <Typography.Text type="success">
          新视频已生成
          {result?.durationMs ? `（时长 ${formatDurationMs(result.durationMs)}）` : ''}
        </Typography.Text>
      )}
      {running && result && (
        <Flex vertical gap={4} style={{ width: '100%', maxWidth: 360 }}>
          <Typography.Text>
            正在{stageName(result.stage)} · {Math.round(result.progress)}%
          </Typography.Text>
          <Progress percent={Math.round(result.progress)} aria-label="合成进度" status="active" />
          {polling && <Typography.Text type="warning">{polling}</Typography.Text>}
        </Flex>
      )}
      {!running && result?.state === 'failed' && (
        <Alert type="error" showIcon title={failureText(result)} style={{ width: '100%' }} />
      )}
      {resultError && (
        <Alert
          type="warning"
          showIcon
          title={`视频状态获取失败：${resultError}`}
          style={{ width: '100%' }}
        />
      )}
    </Flex>
  );
});
