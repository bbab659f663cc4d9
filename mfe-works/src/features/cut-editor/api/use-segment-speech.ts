import { useCallback, useState } from 'react';
import { App } from 'antd';
import {
  generateCutTts,
  getCutVideo,
  getWorkResult,
  stageFailureText,
  type CutVideo,
  type WorkResult,
  errorMessage,
} from '@kol/shared-sdk';
import { useTask } from '@kol/shared-sdk/state';
import type { LocalSegment } from '../model';
import { isRunningState } from './task-state';

export interface SpeechRun {
  /** The keys of the segments being spoken (every one for 全部配音). */
  keys: string[];
  /** 全部配音 rather than some segments. */
  all: boolean;
}

interface SpeechOptions {
  workId: number;
  /** The voice `generate_cut_tts` is called with (整体配音): the cut video's unless chosen. */
  voiceId: string | undefined;
  /** The speed it is called with (整体语速); null: not sent, the server's 1×. */
  speed: number | null;
  taskPollMs: number;
  /** Saves the edits first; false: the speech is not started. */
  flush: () => Promise<boolean>;
  segments: () => LocalSegment[];
  onFetched: (cut: CutVideo) => void;
}

/**
 * The query key of one task followed by its id (`get_work_result` with `taskId`), as the video
 * remote's pages key theirs.
 */
export const taskResultKey = (taskId: string | null) => ['task-result', taskId] as const;

/**
 * Speaks segments again (`generate_cut_tts`, all or some by index, in the voice and speed of
 * the whole, which a segment's own override), follows the task with `get_work_result` by its
 * task id until it ends (`useTask`), then fetches the cut data for the new audio. One run at a
 * time (the server refuses a second while one runs).
 */
export function useSegmentSpeech({
  workId,
  voiceId,
  speed,
  taskPollMs,
  flush,
  segments,
  onFetched,
}: SpeechOptions) {
  const { message } = App.useApp();
  const [run, setRun] = useState<SpeechRun | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  /** The speech task being followed. */
  const [taskId, setTaskId] = useState<string | null>(null);

  const fail = useCallback(
    (text: string) => {
      setFailure(text);
      void message.error(text);
    },
    [message],
  );

  /** The task ended: the new audio is fetched (or why it failed said), and the run is over. */
  const finish = async (result: WorkResult) => {
    try {
      if (result.state === 'succeeded') {
        onFetched(await getCutVideo({ workId }));
        void message.success(run?.all ? '全部片段配音已生成' : '片段配音已生成');
      } else {
        const failedStage = result.stages.find((stage) => stage.state === 'failed')?.name;
        fail(
          result.state === 'cancelled'
            ? '配音已取消'
            : stageFailureText(failedStage ?? result.stage, result.error),
        );
      }
    } catch (error) {
      fail(errorMessage(error));
    } finally {
      setTaskId(null);
      setRun(null);
    }
  };

  useTask<WorkResult>({
    queryKey: taskResultKey(taskId),
    enabled: taskId !== null,
    fetch: (signal) => getWorkResult({ taskId: taskId ?? '' }, { signal }),
    ended: (result) => !isRunningState(result.state),
    intervalMs: taskPollMs,
    onEnd: (result) => void finish(result),
  });

  const speak = useCallback(
    async (only?: string[]) => {
      if (!voiceId) {
        void message.error('没有可用的配音音色，请稍后再试');
        return;
      }
      setFailure(null);
      const current = segments();
      const keys = only ?? current.map((segment) => segment.key);
      setRun({ keys, all: !only });
      try {
        if (!(await flush())) {
          setRun(null);
          void message.error('修改还没有保存，请先重试保存');
          return;
        }
        const saved = segments();
        const indexes = only
          ? saved.flatMap((segment, index) => (only.includes(segment.key) ? [index] : []))
          : undefined;
        const started = await generateCutTts({
          workId,
          voiceId,
          ...(speed !== null ? { speed } : {}),
          ...(indexes ? { indexes } : {}),
        });
        setTaskId(started.taskId);
      } catch (error) {
        fail(errorMessage(error));
        setRun(null);
      }
    },
    [workId, voiceId, speed, flush, segments, message, fail],
  );

  return { run, failure, speak };
}
