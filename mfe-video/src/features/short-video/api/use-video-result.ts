import { useCallback, useEffect, useState } from 'react';
import {
  getWorkInfo,
  getWorkResult,
  type WorkDetail,
  type WorkResult,
  errorMessage,
} from '@kol/shared-sdk';

/** A task's video (`get_work_result` by task id) and its work (`work_info`). */
export function useVideoResult(taskId: string) {
  const [result, setResult] = useState<WorkResult | null>(null);
  const [work, setWork] = useState<WorkDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    getWorkResult({ taskId })
      .then(async (answer) => [answer, await getWorkInfo({ workId: answer.workId })] as const)
      .then(
        ([answer, detail]) => {
          if (!live) return;
          setResult(answer);
          setWork(detail);
          setError(null);
        },
        (reason: unknown) => {
          if (live) setError(errorMessage(reason));
        },
      );
    return () => {
      live = false;
    };
  }, [taskId, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { result, work, setWork, error, reload };
}
