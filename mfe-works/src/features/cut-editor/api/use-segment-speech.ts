import { useCallback, useState } from 'react';
import { App } from 'antd';
import {
  generateCutTts,
  getCutVideo,
  getWorkResult,
  stageFailureText,
  type CutVideo,
  errorMessage,
} from '@kol/shared-sdk';
import type { LocalSegment } from '../model';
import { isAbort, pollUntilDone, useLifeSignal } from './poll';

export interface SpeechRun {
  /** The keys of the segments being spoken (every one for 全部配音). */
  keys: string[];
  /** 全部配音 rather than some segments. */
  all: boolean;
}

interface SpeechOptions {
  workId: number;
  /** The voice `generate_cut_tts` is called with: the cut video's, else the first voice. */
  voiceId: string | undefined;
  taskPollMs: number;
  /** Saves the edits first; false: the speech is not started. */
  flush: () => Promise<boolean>;
  segments: () => LocalSegment[];
  onFetched: (cut: CutVideo) => void;
}

/**
 * Speaks segments again (`generate_cut_tts`, all or some by index), follows the task with
 * `get_work_result` by its task id until it ends, then fetches the cut data for the new audio.
 * One run at a time (the server refuses a second while one runs).
 */
export function useSegmentSpeech({
  workId,
  voiceId,
  taskPollMs,
  flush,
  segments,
  onFetched,
}: SpeechOptions) {
  const { message } = App.useApp();
  const [run, setRun] = useState<SpeechRun | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const life = useLifeSignal();

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
        const { taskId } = await generateCutTts({
          workId,
          voiceId,
          ...(indexes ? { indexes } : {}),
        });
        const result = await pollUntilDone(() => getWorkResult({ taskId }), taskPollMs, life());
        if (result.state === 'succeeded') {
          onFetched(await getCutVideo({ workId }));
          void message.success(only ? '片段配音已生成' : '全部片段配音已生成');
        } else {
          const failedStage = result.stages.find((stage) => stage.state === 'failed')?.name;
          const text =
            result.state === 'cancelled'
              ? '配音已取消'
              : stageFailureText(failedStage ?? result.stage, result.error);
          setFailure(text);
          void message.error(text);
        }
      } catch (error) {
        if (isAbort(error)) return;
        const text = errorMessage(error);
        setFailure(text);
        void message.error(text);
      } finally {
        if (!life().aborted) setRun(null);
      }
    },
    [workId, voiceId, taskPollMs, flush, segments, onFetched, message, life],
  );

  return { run, failure, speak };
}
