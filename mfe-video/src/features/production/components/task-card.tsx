import { App, Button, Card, Flex, Progress, Tag, Typography } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import {
  cancelTask,
  formatTime,
  getWorkResult,
  regenerateVideo,
  type TaskState,
  type WorkResult,
  type WorkSummary,
  errorMessage,
} from '@kol/shared-sdk';
import { ConfirmButton } from '../../../components/confirm-button';
import { isRunning } from '../../../hooks/use-recent-tasks';
import { stageName } from '@kol/shared-sdk';
import { failureText, formatEta } from '../../../lib/stages';
import { videoTypeLabel } from '@kol/shared-sdk';
import { useTaskProgress } from '../api/use-task-progress';

const STATE: Record<TaskState, { label: string; color: string }> = {
  queued: { label: '排队中', color: 'default' },
  running: { label: '生成中', color: 'processing' },
  succeeded: { label: '已完成', color: 'success' },
  failed: { label: '失败', color: 'error' },
  cancelled: { label: '已取消', color: 'warning' },
};

interface TaskCardProps {
  work: WorkSummary;
  initial: WorkResult;
  highlighted: boolean;
}

/**
 * The server's remaining time (it never goes up; at 0 the task runs past its estimate, so it
 * says so rather than 约 1 秒 for a minute).
 */
function etaText(seconds: number | null): string {
  if (seconds === 0) return ' · 即将完成';
  const eta = formatEta(seconds);
  return eta ? ` · 预计还需 ${eta}` : '';
}

/**
 * One video task: its stage, percentage and estimate while it runs; the stage that failed and
 * why, with 重新生成; 取消 while it runs; the video once it is done.
 */
export function TaskCard({ work, initial, highlighted }: TaskCardProps) {
  const { message } = App.useApp();
  const { result, polling, restart } = useTaskProgress(initial);
  const running = isRunning(result);
  const state = STATE[result.state];
  const label = videoTypeLabel(work.type);

  const retry = async () => {
    try {
      await regenerateVideo({ workId: work.workId });
      restart(await getWorkResult({ workId: work.workId }));
    } catch (error) {
      void message.error(errorMessage(error));
      throw error;
    }
  };

  const cancel = async () => {
    if (!result.taskId) return;
    try {
      await cancelTask({ taskId: result.taskId });
      restart(await getWorkResult({ workId: work.workId }));
      void message.success('已取消生成');
    } catch (error) {
      void message.error(errorMessage(error));
      throw error;
    }
  };

  return (
    <Card
      size="small"
      role="group"
      aria-label={`生成任务 ${work.title}`}
      style={highlighted ? { borderColor: '#eb2f96' } : undefined}
    >
      <Flex vertical gap={8}>
        <Flex justify="space-between" align="center" gap={8} wrap>
          <Typography.Text strong>{work.title}</Typography.Text>
          <Flex gap={4} align="center">
            <Tag>{label}</Tag>
            <Tag color={state.color}>{state.label}</Tag>
          </Flex>
        </Flex>
        {running && (
          <>
            <Progress percent={Math.round(result.progress)} status="active" aria-label="生成进度" />
            <Typography.Text type="secondary">
              {result.state === 'queued' ? '排队中' : `正在${stageName(result.stage)}`}
              {etaText(result.etaSeconds)}
            </Typography.Text>
          </>
        )}
        {result.stages.length > 0 && (
          <Flex gap={4} wrap aria-label="生成阶段">
            {result.stages.map((stage) => (
              <Tag key={stage.name} color={STATE[stage.state].color}>
                {stageName(stage.name)}{' '}
                {stage.state === 'running'
                  ? `${Math.round(stage.progress)}%`
                  : STATE[stage.state].label}
              </Tag>
            ))}
          </Flex>
        )}
        {result.state === 'failed' && (
          <Typography.Text type="danger" role="alert">
            {failureText(result)}
          </Typography.Text>
        )}
        {polling && <Typography.Text type="warning">{polling}</Typography.Text>}
        <Flex gap={8} wrap justify="flex-end" align="center">
          <Typography.Text type="secondary" style={{ fontSize: 12, marginRight: 'auto' }}>
            更新于 {formatTime(work.updateTime)}
          </Typography.Text>
          {running && (
            <ConfirmButton
              danger
              confirmTitle="取消生成"
              confirmContent="取消后这次生成会停止，已扣除的次数不会退回。"
              okText="取消生成"
              okDanger
              onConfirm={cancel}
              aria-label={`取消生成 ${work.title}`}
            >
              取消
            </ConfirmButton>
          )}
          {(result.state === 'failed' || result.state === 'cancelled') && (
            <ConfirmButton
              confirmTitle="重新生成"
              confirmContent={`将消耗 1 次「${label}」生成次数，从头重新生成这个视频。生成失败会自动退回次数。`}
              okText="确认重新生成"
              onConfirm={retry}
              aria-label={`重新生成 ${work.title}`}
            >
              重新生成
            </ConfirmButton>
          )}
          {result.state === 'succeeded' && result.taskId && (
            <Link to={`/video/short/${result.taskId}`}>
              <Button type="primary" aria-label={`查看视频 ${work.title}`}>
                查看视频
              </Button>
            </Link>
          )}
        </Flex>
      </Flex>
    </Card>
  );
}
