import { useCallback, useEffect, useState } from 'react';
import { App } from 'antd';
import {
  followVideoProgress,
  getWorkResult,
  stageFailureText,
  type WorkResult,
  errorMessage,
} from '@kol/shared-sdk';
import { isRunningState } from './poll';

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

/**
 * The work's current video and, while a task of it runs, its live progress: the progress stream
 * (`followVideoProgress`), then polling `get_work_result` when the stream drops. `started`
 * follows a merge the page has just started; its end is announced (新视频已生成, or why it failed).
 */
export function useVideoProgress({ workId, initial, progressPollMs }: ProgressOptions) {
  const { message } = App.useApp();
  const [result, setResult] = useState<WorkResult | null>(initial);
  /** The newest video made (kept while a new one is being merged). */
  const [video, setVideo] = useState(() =>
    initial?.videoUrl ? { url: initial.videoUrl, taskId: initial.taskId } : null,
  );
  const [polling, setPolling] = useState<string | null>(null);
  /** The task id of the merge started on this page (announced when it ends). */
  const [startedTask, setStartedTask] = useState<string | null>(null);
  const [madeHere, setMadeHere] = useState(false);
  const running = result !== null && isRunningState(result.state);
  const taskId = result?.taskId ?? null;

  useEffect(() => {
    if (!running) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const take = (answer: WorkResult) => {
      setResult(answer);
      setPolling(null);
      if (answer.videoUrl) setVideo({ url: answer.videoUrl, taskId: answer.taskId });
    };
    const finish = (answer: WorkResult) => {
      take(answer);
      if (answer.taskId !== startedTask || isRunningState(answer.state)) return;
      if (answer.state === 'succeeded') {
        setMadeHere(true);
        void message.success('新视频已生成');
      } else void message.error(failureText(answer));
    };
    const poll = () => {
      getWorkResult({ workId }).then(
        (answer) => {
          if (!live) return;
          if (isRunningState(answer.state)) {
            take(answer);
            timer = setTimeout(poll, progressPollMs);
          } else finish(answer);
        },
        (reason: unknown) => {
          if (!live) return;
          setPolling(`进度暂时获取不到（${errorMessage(reason)}），正在重试…`);
          timer = setTimeout(poll, progressPollMs);
        },
      );
    };
    const stop = followVideoProgress(workId, {
      onProgress: (answer) => live && take(answer),
      onDone: (answer) => live && finish(answer),
      onError: () => {
        if (live) timer = setTimeout(poll, progressPollMs);
      },
    });
    return () => {
      live = false;
      stop();
      if (timer) clearTimeout(timer);
    };
    // Follows again for each new task; `startedTask` is set together with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [running, workId, taskId, progressPollMs]);

  /** A merge was started: follow it from the start. */
  const started = useCallback(
    (newTaskId: string) => {
      setStartedTask(newTaskId);
      setMadeHere(false);
      setResult((current) => ({
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
      }));
    },
    [workId],
  );

  return {
    result,
    video,
    running,
    polling,
    /** The newest merge was started here and made a new video. */
    madeHere,
    /** The merge started here failed: it may be sent again with re_send_merge_request. */
    startedTask,
    started,
  };
}
