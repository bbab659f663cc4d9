import { Alert, Button, Empty, Flex, Skeleton } from 'antd';
import { Link, useSearchParams } from '@kol/shared-sdk/router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getWorkInfo, getWorkResult, type WorkDetail, type WorkResult } from '@kol/shared-sdk';
import { PageFrame } from '../../components/page-frame';
import { useRecentTasks, type RecentTask } from '../../hooks/use-recent-tasks';
import { workResultKey } from '../../lib/task-keys';
import { TaskCard } from './components/task-card';

/** The task list's entry of a work read on its own (its summary as `get_works` gives it). */
function recentTaskOf(work: WorkDetail, result: WorkResult): RecentTask {
  return {
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
  };
}

/**
 * The task of the work in the address when the list does not hold it (`enabled`): its work and
 * state read on their own. A work that cannot be read, or was never generated, adds nothing.
 */
function useFocusedTask(workId: number | null, enabled: boolean): RecentTask | null {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['recent-task', workId],
    queryFn: async ({ signal }) => {
      const id = workId as number;
      const [work, result] = await Promise.all([
        getWorkInfo({ workId: id }, { signal }),
        getWorkResult({ workId: id }, { signal }),
      ]);
      if (result.taskId === null) return null;
      // Where its card follows it from.
      client.setQueryData(workResultKey(id), result);
      return recentTaskOf(work, result);
    },
    enabled: enabled && workId !== null,
    // Read again each time the list is (a new task of the work may have started since).
    staleTime: 0,
  });
  return query.data ?? null;
}

/**
 * `/video/production` 生成任务: every running and recent video task of the user, live. Everything
 * comes from the server, so a reload or a server restart loses nothing. `?workId=` marks the
 * task just started (and lists it even when it is not among the newest works).
 */
export function ProductionScreen() {
  const [params] = useSearchParams();
  const focus = Number(params.get('workId')) || null;
  const { tasks, loading, error, reload } = useRecentTasks();
  const listed = tasks.some((task) => task.work.workId === focus);
  const extra = useFocusedTask(focus, !loading && focus !== null && !listed);

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
