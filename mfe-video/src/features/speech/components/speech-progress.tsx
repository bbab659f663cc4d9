import { useEffect, useState } from 'react';
import { Flex, Progress, Typography } from 'antd';
import type { AsyncSpeechResult } from '@kol/shared-sdk';

/**
 * A long text being spoken. The task reports its state but no percentage, so this shows the
 * state and the time it has taken so far rather than a made-up figure.
 */
export function SpeechProgress({
  task,
  startedAt,
}: {
  task: AsyncSpeechResult | null;
  startedAt: number;
}) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.round((now - startedAt) / 1000));
  return (
    <Flex vertical gap={4} role="status" aria-label="合成进度">
      <Progress percent={100} status="active" showInfo={false} />
      <Typography.Text type="secondary">
        {task?.state === 'queued' ? '排队中' : '正在分段合成长文本'} · 已用时 {seconds} 秒
      </Typography.Text>
    </Flex>
  );
}
