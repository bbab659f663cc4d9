import { useCallback, useEffect, useState } from 'react';
import { followVideoProgress, getWorkResult, type WorkResult, errorMessage } from '@kol/shared-sdk';
import { isRunning } from '../../../hooks/use-recent-tasks';

/** How often a task is asked for when its progress stream is gone (e.g. a server restart). */
export const PROGRESS_POLL_MS = 3000;

/**
 * One work's task, live: while it runs, its progress stream (`progress_stream`); when the
 * stream drops, polling `get_work_result` until the task ends, so a server restart is ridden
 * out. `restart` follows a new task of the work (after a retry).
 */
export function useTaskProgress(initial: WorkResult) {
  const [result, setResult] = useState(initial);
  const [polling, setPolling] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const running = isRunning(result);
  const workId = result.workId;

  useEffect(() => {
    if (!running) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () => {
      getWorkResult({ workId }).then(
        (answer) => {
          if (!live) return;
          setResult(answer);
          setPolling(null);
          if (isRunning(answer)) timer = setTimeout(poll, PROGRESS_POLL_MS);
        },
        (reason: unknown) => {
          if (!live) return;
          setPolling(`进度暂时获取不到（${errorMessage(reason)}），正在重试…`);
          timer = setTimeout(poll, PROGRESS_POLL_MS);
        },
      );
    };
    const stop = followVideoProgress(workId, {
      onProgress: (answer) => live && setResult(answer),
      onDone: (answer) => live && setResult(answer),
      onError: () => {
        if (!live) return;
        timer = setTimeout(poll, PROGRESS_POLL_MS);
      },
    });
    return () => {
      live = false;
      stop();
      if (timer) clearTimeout(timer);
    };
    // `generation` starts following again after a retry made a new task.
  }, [running, workId, generation]);

  const restart = useCallback((next: WorkResult) => {
    setResult(next);
    setGeneration((n) => n + 1);
  }, []);

  return { result, polling, restart };
}
