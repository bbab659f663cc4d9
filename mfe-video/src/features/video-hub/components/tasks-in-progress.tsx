import { Alert, Button, Card, Flex, Progress, Skeleton, Typography } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import { isRunning, useRecentTasks } from '../../../hooks/use-recent-tasks';
import { pagePath, usePhoneLayout } from '../../../lib/phone';
import { stageName } from '@kol/shared-sdk';
import { videoTypeLabel } from '@kol/shared-sdk';

/** The user's videos being made right now, each leading to its progress. */
export function TasksInProgress() {
  const phone = usePhoneLayout();
  const { tasks, loading, error, reload } = useRecentTasks();
  const running = tasks.filter((task) => isRunning(task.result));
  const all = pagePath('/video/production', phone);

  return (
    <Card
      title="进行中的视频"
      size="small"
      extra={<Link to={all}>全部生成任务</Link>}
      aria-label="进行中的视频"
      role="region"
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : error ? (
        <Alert
          type="error"
          showIcon
          title={`生成任务加载失败：${error}`}
          action={
            <Button size="small" onClick={reload}>
              重新加载
            </Button>
          }
        />
      ) : running.length === 0 ? (
        <Typography.Text type="secondary">暂无进行中的视频</Typography.Text>
      ) : (
        <Flex gap={12} vertical={phone} style={{ overflowX: phone ? undefined : 'auto' }}>
          {running.map(({ work, result }) => (
            <Link
              key={work.workId}
              to={pagePath(`/video/production?workId=${work.workId}`, phone)}
              aria-label={`查看进度 ${work.title}`}
              style={{ minWidth: phone ? undefined : 220 }}
            >
              <Card size="small" hoverable>
                <Typography.Text strong ellipsis>
                  {work.title}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                  {videoTypeLabel(work.type)} ·{' '}
                  {result.state === 'queued' ? '排队中' : stageName(result.stage)}
                </Typography.Text>
                <Progress percent={Math.round(result.progress)} size="small" />
              </Card>
            </Link>
          ))}
        </Flex>
      )}
    </Card>
  );
}
