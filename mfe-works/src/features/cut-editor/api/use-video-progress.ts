import { useCallback, useRef, useState } from 'react';
import { App } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  followVideoProgress,
  getWorkResult,
  stageFailureText,
  type WorkResult,
} from '@kol/shared-sdk';
import { useTask } from '@kol/shared-sdk/state';
import { isRunningState, workResultKey } from './task-state';

/** The stage a result failed in: the failed stage's name, else the stage it stopped at. */
export function failedStageOf(result: WorkResult): string {
  return result.stages.find((stage) => stage.state === 'failed')?.name ?? result.stage;
}

/** Why a result failed, naming the stage, in Chinese. */
export function failureText(result: WorkResult): string {
  return result.state === 'cancelled'
    ? '合成已取消'
    : stageFailureText(failedStageOf(result), result.error);
}

interface ProgressOptions {
  workId: number;
  initial: WorkResult | null;
  progressPollMs: number;
}

type ShownVideo = { url: string; taskId: string | null } | null;

/**
 * The work's current video and, while a task of it runs, its live progress, followed with
 * `useTask` under the work's task key: the progress stream (`followVideoProgress`), polling
 * `get_work_result` when the stream is not live. `started` follows a merge the page has just
 * started; its end is announced (新视频已生成, or why it failed).
 */
export function useVideoProgress({ workId, initial, progressPollMs }: ProgressOptions) {
  const { message } = App.useApp();
  const client = useQueryClient();
  /** The newest video made (kept while a new one is being merged). */
  const [video, setVideo] = useState<ShownVideo>(() =>
    initial?.videoUrl ? { url: initial.videoUrl, taskId: initial.taskId } : null,
  );
  /** The task id of the merge started on this page (announced when it ends). */
  const [startedTask, setStartedTask] = useState<string | null>(null);
  const [madeHere, setMadeHere] = useState(false);
  // Read by the answers' handler, which the stream keeps from the render that opened it.
  const startedRef = useRef<string | null>(null);
  const announced = useRef<string | null>(null);

  /** An answer of the stream or of a poll: its video is shown, the end of a merge told. */
  const take = (answer: WorkResult) => {
    if (answer.videoUrl) setVideo({ url: answer.videoUrl, taskId: answer.taskId });
    if (isRunningState(answer.state) || answer.taskId !== startedRef.current) return;
    // A poll under way when the stream told the end answers the same end: told once.
    if (announced.current === answer.taskId) return;
    announced.current = answer.taskId;
    if (answer.state === 'succeeded') {
      setMadeHere(true);
      void message.success('新视频已生成');
    } else void message.error(failureText(answer));
  };

  const task = useTask<WorkResult>({
    queryKey: workResultKey(workId),
    fetch: async (signal) => {
      const answer = await getWorkResult({ workId }, { signal });
      take(answer);
      return answer;
    },
    stream: ({ update, fail }) =>
      followVideoProgress(workId, {
        onProgress: (answer) => {
          take(answer);
          update(answer);
        },
        onDone: (answer) => {
          take(answer);
          update(answer);
          // The stream is closed after its last answer: polling takes over if that answer is
          // not yet the end this page waits for.
          fail();
        },
        onError: fail,
      }),
    // A merge started here has ended only when an answer names it: the stream or a poll may
    // still answer the video before it (its task not yet running), which must not end the wait.
    ended: (answer) =>
      !isRunningState(answer.state) &&
      (startedRef.current === null || answer.taskId === startedRef.current),
    intervalMs: progressPollMs,
    ...(initial ? { initialData: initial } : {}),
  });
  const result = task.data ?? null;
  const running = result !== null && isRunningState(result.state);

  /** A merge was started: follow it from the start. */
  const started = useCallback(
    (newTaskId: string) => {
      startedRef.current = newTaskId;
      setStartedTask(newTaskId);
      setMadeHere(false);
      const key = workResultKey(workId);
      // An answer under way about the task before must not land over the new one.
      void client.cancelQueries({ queryKey: key, exact: true }).then(() =>
        client.setQueryData<WorkResult>(key, (current) => ({
          workId,
          taskId: newTaskId,
          state: 'queued',
          stage: '',
          progress: 0,
          etaSeconds: null,
          stages: [],
          videoUrl: current?.videoUrl ?? '',
          srtUrl: current?.srtUrl ?? '',
          coverUrl: current?.coverUrl ?? '',
          durationMs: current?.durationMs ?? 0,
          error: null,
        })),
      );
    },
    [client, workId],
  );

  return {
    result,
    video,
    running,
    /** A poll failed while the task runs: it is asked again on the interval. */
    polling: running && task.error ? `进度暂时获取不到（${task.error}），正在重试…` : null,
    /** The newest merge was started here and made a new video. */
    madeHere,
    /** The merge started here failed: it may be sent again with re_send_merge_request. */
    startedTask,
    started,
  };
}
