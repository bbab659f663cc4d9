import { Flex, Progress, Tag, Typography } from 'antd';
import { stageFailureText, stageName, type WorkSummary } from '@kol/shared-sdk';

/**
 * Where a work's newest video task is: never generated, being made (its stage and percent),
 * done, failed (naming the stage that failed and why), or cancelled.
 */
export function WorkStatus({ work }: { work: WorkSummary }) {
  if (work.taskId === null) return <Tag>未生成</Tag>;
  switch (work.state) {
    case 'queued':
    case 'running': {
      const percent = Math.max(0, Math.min(100, Math.round(work.progress)));
      return (
        <Flex vertical gap={2}>
          <Flex gap={4} align="center">
            <Tag color="processing">生成中</Tag>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {work.state === 'queued' && !work.stage ? '排队中' : `「${stageName(work.stage)}」`}
            </Typography.Text>
          </Flex>
          <Progress
            percent={percent}
            size="small"
            status="active"
            aria-label={`生成进度 ${work.title}`}
          />
        </Flex>
      );
    }
    case 'succeeded':
      return <Tag color="success">已完成</Tag>;
    case 'failed':
      return (
        <Flex vertical gap={2} align="start">
          <Tag color="error">失败</Tag>
          <Typography.Text type="danger" style={{ fontSize: 12 }}>
            {stageFailureText(work.failedStage, work.error)}
          </Typography.Text>
        </Flex>
      );
    case 'cancelled':
      return <Tag color="warning">已取消</Tag>;
  }
}
