import { useEffect, useState } from 'react';
import { Alert, Button, Empty, Flex, Skeleton } from 'antd';
import { Link, useSearchParams } from '@kol/shared-sdk/router';
import { getWorkInfo, getWorkResult } from '@kol/shared-sdk';
import { PageFrame } from '../components/page-frame';
import { TaskCard } from '../features/production/components/task-card';
import { useRecentTasks, type RecentTask } from '../hooks/use-recent-tasks';

/**
 * `/video/production` 生成任务: every running and recent video task of the user, live. Everything
 * comes from the server, so a reload or a server restart loses nothing. `?workId=` marks the
 * task just started (and lists it even when it is not among the newest works).
 */
export function ProductionPage() {
  const [params] = useSearchParams();
  const focus = Number(params.get('workId')) || null;
  const { tasks, loading, error, reload } = useRecentTasks();
  const [extra, setExtra] = useState<RecentTask | null>(null);
  const listed = tasks.some((task) => task.work.workId === focus);

  useEffect(() => {
    if (loading || focus === null || listed) return;
    let live = true;
    Promise.all([getWorkInfo({ workId: focus }), getWorkResult({ workId: focus })]).then(
      ([work, result]) => {
        if (!live || result.taskId === null) return;
        setExtra({
          work: {
            workId: work.workId,
            type: work.type,
            flag: work.flag,
            title: work.title,
            excerpt: '',
            coverUrl: work.coverUrl,
            taskId: result.taskId,
            state: result.state,
            stage: result.stage,
            progress: result.progress,
            failedStage: result.stages.find((stage) => stage.state === 'failed')?.name ?? '',
            error: result.error,
            videoUrl: result.videoUrl,
            srtUrl: result.srtUrl,
            durationMs: result.durationMs,
            reportProblems: result.report?.problems.length ?? 0,
            revision: work.revision,
            updateTime: work.updateTime,
          },
          result,
        });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [loading, focus, listed]);

  const all = extra && !listed ? [extra, ...tasks] : tasks;

  return (
    <PageFrame title="生成任务" outside extra={<Button onClick={reload}>刷新</Button>}>
      {error && (
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
      )}
      {loading ? (
        <Skeleton active />
      ) : all.length === 0 && !error ? (
        <Empty description="还没有生成任务">
          <Link to="/video">去制作视频</Link>
        </Empty>
      ) : (
        <Flex vertical gap={12}>
          {all.map(({ work, result }) => (
            <TaskCard
              key={`${work.workId}:${result.taskId ?? ''}`}
              work={work}
              initial={result}
              highlighted={work.workId === focus}
            />
          ))}
        </Flex>
      )}
    </PageFrame>
  );
}
