import { Typography } from 'antd';
import { formatDurationMs } from '@kol/shared-sdk';

/**
 * 预计时长: the video's length as the SDK's speech model estimates it from what the page holds
 * (the render speaks the same text with the same voice, so it holds within 10 %). Announced as
 * it follows the edits; nothing while there is nothing to say.
 */
export function VideoEstimate({ ms }: { ms: number }) {
  if (ms <= 0) return null;
  return (
    <Typography.Text aria-live="polite" data-testid="video-estimate">
      预计时长 约 {formatDurationMs(ms)}
    </Typography.Text>
  );
}
